package main

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// A small schema language for deploy/k8s's manifests: no validator can
// check them here (kubectl's --dry-run=client still asks a cluster for its
// OpenAPI documents, and the inference extension's kinds are CRDs), so
// the fields ember's manifests use are written down from the APIs'
// references (Kubernetes apps/v1 and core/v1, Gateway API v1, the
// Gateway API Inference Extension's inference.networking.k8s.io/v1 and
// inference.networking.x-k8s.io/v1alpha2) and checked: types, required
// fields, enums, and, where a map is closed, no field the API lacks (a
// misspelt probe is silently dropped by a lenient reader).

// node is the schema of one value.
type node struct {
	typ    string // "map", "list", "string", "int", "bool", "any"
	req    bool   // the field must be present
	fields map[string]*node
	open   bool // a map that may hold fields not listed
	items  *node
	enum   []string
	min    int // lists: fewest items; ints: smallest value (with max)
	max    int // lists: most items (0: any); ints: largest value (0: any)
}

func str() *node                     { return &node{typ: "string"} }
func integer(lo, hi int) *node       { return &node{typ: "int", min: lo, max: hi} }
func oneOf(vals ...string) *node     { return &node{typ: "string", enum: vals} }
func list(items *node, lo int) *node { return &node{typ: "list", items: items, min: lo} }
func closed(f map[string]*node) *node {
	return &node{typ: "map", fields: f}
}
func openMap(f map[string]*node) *node { return &node{typ: "map", fields: f, open: true} }
func anything() *node                  { return &node{typ: "any"} }

// required is n as a field that must be present (a copy: schemas such as
// labels are shared by optional fields too).
func required(n *node) *node {
	c := *n
	c.req = true
	return &c
}

// dnsLabel is an RFC 1123 label, what Kubernetes names (and container and
// port names) must be.
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// check reports every way v departs from n, each with its path.
func (n *node) check(path string, v any) []string {
	var errs []string
	bad := func(f string, a ...any) { errs = append(errs, path+": "+fmt.Sprintf(f, a...)) }
	switch n.typ {
	case "any":
	case "string":
		s, ok := v.(string)
		if !ok {
			bad("want a string, have %T %v", v, v)
		} else if n.enum != nil && !slices.Contains(n.enum, s) {
			bad("%q is none of %v", s, n.enum)
		}
	case "int":
		i, ok := v.(int)
		if !ok {
			bad("want an integer, have %T %v", v, v)
		} else if i < n.min || n.max > 0 && i > n.max {
			bad("%d is outside [%d, %d]", i, n.min, n.max)
		}
	case "bool":
		if _, ok := v.(bool); !ok {
			bad("want true or false, have %T %v", v, v)
		}
	case "list":
		l, ok := v.([]any)
		if !ok {
			bad("want a list, have %T", v)
			break
		}
		if len(l) < n.min || n.max > 0 && len(l) > n.max {
			bad("%d items, want %d to %d", len(l), n.min, n.max)
		}
		for i, it := range l {
			errs = append(errs, n.items.check(fmt.Sprintf("%s[%d]", path, i), it)...)
		}
	case "map":
		m, ok := v.(map[string]any)
		if !ok {
			bad("want a map, have %T", v)
			break
		}
		keys := make([]string, 0, len(n.fields))
		for k := range n.fields {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f := n.fields[k]
			if sub, ok := m[k]; ok {
				errs = append(errs, f.check(path+"."+k, sub)...)
			} else if f.req {
				bad("%s is required", k)
			}
		}
		if !n.open {
			for k := range m {
				if _, ok := n.fields[k]; !ok {
					bad("unknown field %q (the API has %s)", k, strings.Join(keys, ", "))
				}
			}
		}
	}
	return errs
}

// Pieces shared by the kinds.
var (
	labels   = &node{typ: "map", open: true}
	metadata = openMap(map[string]*node{"name": required(str()), "labels": labels, "namespace": str(), "annotations": labels})
	// httpGet is core/v1's HTTPGetAction; port is a number or a port's name.
	httpGet = closed(map[string]*node{"path": required(str()), "port": required(anything()), "scheme": oneOf("HTTP", "HTTPS"),
		"host": str(), "httpHeaders": list(anything(), 0)})
	probe = closed(map[string]*node{"httpGet": required(httpGet), "initialDelaySeconds": integer(0, 0),
		"periodSeconds": integer(1, 0), "timeoutSeconds": integer(1, 0), "successThreshold": integer(1, 0),
		"failureThreshold": integer(1, 0), "terminationGracePeriodSeconds": integer(1, 0)})
	container = closed(map[string]*node{
		"name": required(str()), "image": required(str()), "args": list(str(), 1), "command": list(str(), 1),
		"ports": list(closed(map[string]*node{"name": str(), "containerPort": required(integer(1, 65535)),
			"protocol": oneOf("TCP", "UDP", "SCTP")}), 1),
		"startupProbe": probe, "livenessProbe": probe, "readinessProbe": probe,
		"resources":    closed(map[string]*node{"requests": labels, "limits": labels}),
		"volumeMounts": list(closed(map[string]*node{"name": required(str()), "mountPath": required(str()), "readOnly": {typ: "bool"}}), 1),
		"env":          list(anything(), 1), "securityContext": anything(), "imagePullPolicy": oneOf("Always", "IfNotPresent", "Never"),
	})
	// objectRef is a reference by group, kind and name (the kind and group
	// defaulted where the API says).
	objectRef = func(kinds ...string) *node {
		return closed(map[string]*node{"group": str(), "kind": oneOf(kinds...), "name": required(str()),
			"namespace": str(), "port": anything(), "sectionName": str(), "weight": integer(0, 1000000)})
	}
)

// kinds are the schemas of the kinds deploy/k8s holds, by apiVersion and
// kind; a kind not here is an error (a manifest the test has not read).
var kinds = map[string]*node{
	"apps/v1 Deployment": closed(map[string]*node{
		"apiVersion": required(str()), "kind": required(str()), "metadata": required(metadata),
		"spec": required(closed(map[string]*node{
			"replicas": integer(0, 0),
			"selector": required(closed(map[string]*node{"matchLabels": required(labels)})),
			"template": required(closed(map[string]*node{
				"metadata": required(openMap(map[string]*node{"labels": required(labels)})),
				"spec": required(openMap(map[string]*node{
					"containers":                    required(list(container, 1)),
					"terminationGracePeriodSeconds": integer(0, 0),
					"volumes":                       list(openMap(map[string]*node{"name": required(str())}), 1),
				})),
			})),
			"strategy": anything(),
		})),
	}),
	// InferencePool, inference.networking.k8s.io/v1: the selector is
	// matchLabels only, one to eight target ports, and the endpoint
	// picker's Service (port 9002 when none is named).
	"inference.networking.k8s.io/v1 InferencePool": closed(map[string]*node{
		"apiVersion": required(str()), "kind": required(str()), "metadata": required(metadata),
		"spec": required(closed(map[string]*node{
			"selector":    required(closed(map[string]*node{"matchLabels": required(labels)})),
			"targetPorts": required(&node{typ: "list", min: 1, max: 8, items: closed(map[string]*node{"number": required(integer(1, 65535))})}),
			"appProtocol": oneOf("http", "kubernetes.io/h2c"),
			"endpointPickerRef": required(closed(map[string]*node{
				"group": str(), "kind": str(), "name": required(str()),
				"port":        closed(map[string]*node{"number": required(integer(1, 65535))}),
				"failureMode": oneOf("FailOpen", "FailClose"),
			})),
		})),
	}),
	// InferenceObjective, inference.networking.x-k8s.io/v1alpha2: a
	// priority (higher first when the pool is loaded) for the requests
	// naming it, and the pool it belongs to.
	"inference.networking.x-k8s.io/v1alpha2 InferenceObjective": closed(map[string]*node{
		"apiVersion": required(str()), "kind": required(str()), "metadata": required(metadata),
		"spec": required(closed(map[string]*node{
			"priority": &node{typ: "int", min: -1 << 31},
			"poolRef":  required(closed(map[string]*node{"group": str(), "kind": oneOf("InferencePool"), "name": required(str())})),
		})),
	}),
	"gateway.networking.k8s.io/v1 HTTPRoute": closed(map[string]*node{
		"apiVersion": required(str()), "kind": required(str()), "metadata": required(metadata),
		"spec": required(closed(map[string]*node{
			"parentRefs": required(list(objectRef("Gateway"), 1)),
			"hostnames":  list(str(), 1),
			"rules": required(list(closed(map[string]*node{
				"matches": list(closed(map[string]*node{
					"path":    closed(map[string]*node{"type": oneOf("Exact", "PathPrefix", "RegularExpression"), "value": required(str())}),
					"method":  str(),
					"headers": list(anything(), 1),
				}), 1),
				"backendRefs": required(list(objectRef("InferencePool", "Service"), 1)),
				"timeouts":    closed(map[string]*node{"request": str(), "backendRequest": str()}),
				"filters":     list(anything(), 1),
			}), 1)),
		})),
	}),
}
