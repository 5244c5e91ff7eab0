package main

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/emberllm/ember/engine/registry"
)

// deploy/ held to the binary it deploys: the manifests to their APIs'
// schemas (deploy_schema_test.go) and to one another (the pool selects
// the Deployment's pods on their port, the route and the objective name
// the pool), the containers' and images' arguments to ember serve's
// flags, and the probe paths and the metrics the endpoint picker scrapes
// to what a server started with those very arguments answers.

// manifest is one YAML document of deploy/k8s.
type manifest struct {
	file string
	obj  map[string]any
}

func (m manifest) kind() string { return m.obj["apiVersion"].(string) + " " + m.obj["kind"].(string) }
func (m manifest) name() string { return dig(m.obj, "metadata", "name").(string) }

// dig follows keys (strings) and indices (ints) into v; nil where the path
// leads nowhere.
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// loadManifests reads every document of deploy/k8s/*.yaml and checks each
// against its kind's schema.
func loadManifests(t *testing.T) []manifest {
	t.Helper()
	files, err := filepath.Glob("../../deploy/k8s/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in deploy/k8s: %v", err)
	}
	var out []manifest
	for _, f := range files {
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(r)
		for {
			var obj map[string]any
			err := dec.Decode(&obj)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if obj == nil {
				continue
			}
			av, _ := obj["apiVersion"].(string)
			k, _ := obj["kind"].(string)
			s, ok := kinds[av+" "+k]
			if !ok {
				t.Fatalf("%s: %s %s is a kind this test has no schema of", f, av, k)
			}
			for _, e := range s.check(filepath.Base(f), obj) {
				t.Error(e)
			}
			m := manifest{file: filepath.Base(f), obj: obj}
			if !dnsLabel.MatchString(m.name()) {
				t.Errorf("%s: name %q is not an RFC 1123 label", f, m.name())
			}
			out = append(out, m)
		}
		r.Close()
	}
	if t.Failed() {
		t.FailNow()
	}
	return out
}

// byKind is the manifests of one kind.
func byKind(ms []manifest, kind string) []manifest {
	var out []manifest
	for _, m := range ms {
		if m.obj["kind"] == kind {
			out = append(out, m)
		}
	}
	return out
}

// pickerMetrics are the model-server metrics the inference extension's
// endpoint picker scrapes from a vLLM-protocol server by default (its
// model server protocol: queue length, running requests, KV cache use;
// the LoRA and cache-config infos), and the older KV cache name pickers
// before v1.3 read.
var pickerMetrics = []string{
	"vllm:num_requests_waiting", "vllm:num_requests_running", "vllm:kv_cache_usage_perc",
	"vllm:gpu_cache_usage_perc", "vllm:lora_requests_info", "vllm:cache_config_info",
}

// TestDeployManifests: deploy/k8s is valid against its kinds' schemas and
// consistent: each Deployment's ember container runs ember serve with
// flags it takes, listening beyond loopback on the port it declares, its
// drain shorter than the pod's grace period, probed on /health (live)
// and /ready (ready); the pool selects those pods on that port; the
// route and the objective name the pool.
func TestDeployManifests(t *testing.T) {
	ms := loadManifests(t)
	deps, pools := byKind(ms, "Deployment"), byKind(ms, "InferencePool")
	if len(deps) == 0 || len(pools) != 1 || len(byKind(ms, "HTTPRoute")) == 0 || len(byKind(ms, "InferenceObjective")) == 0 {
		t.Fatalf("deploy/k8s: %d Deployments, %d InferencePools, want at least one of each, one pool, a route and an objective", len(deps), len(pools))
	}
	pool := pools[0]
	for _, d := range deps {
		c := emberContainer(t, d)
		args := stringsOf(c["args"])
		o := parseDeployed(t, d.file, args)
		port := listenPort(t, d.file, o.addr)
		declared := dig(c, "ports", 0, "containerPort")
		if declared != port {
			t.Errorf("%s: serve listens on %d, the container declares %v", d.file, port, declared)
		}
		if grace, _ := dig(d.obj, "spec", "template", "spec", "terminationGracePeriodSeconds").(int); time.Duration(grace)*time.Second <= o.drain {
			t.Errorf("%s: --drain %v is not shorter than terminationGracePeriodSeconds %d: the kubelet kills the drain", d.file, o.drain, grace)
		}
		for probe, path := range map[string]string{"livenessProbe": "/health", "readinessProbe": "/ready", "startupProbe": "/health"} {
			get := dig(c, probe, "httpGet")
			if get == nil {
				if probe != "startupProbe" {
					t.Errorf("%s: no %s", d.file, probe)
				}
				continue
			}
			if p := dig(get, "path"); p != path {
				t.Errorf("%s: %s on %v, want %s", d.file, probe, p, path)
			}
			if p := dig(get, "port"); p != port && p != dig(c, "ports", 0, "name") {
				t.Errorf("%s: %s on port %v, serve listens on %d", d.file, probe, p, port)
			}
		}
		tmpl := dig(d.obj, "spec", "template", "metadata", "labels").(map[string]any)
		for k, v := range dig(d.obj, "spec", "selector", "matchLabels").(map[string]any) {
			if tmpl[k] != v {
				t.Errorf("%s: the selector's %s=%v is not on the pods", d.file, k, v)
			}
		}
		for k, v := range dig(pool.obj, "spec", "selector", "matchLabels").(map[string]any) {
			if tmpl[k] != v {
				t.Errorf("%s: the pool selects %s=%v, which %s's pods lack", pool.file, k, v, d.file)
			}
		}
		if n := dig(pool.obj, "spec", "targetPorts", 0, "number"); n != port {
			t.Errorf("%s: the pool's port %v, %s's serve listens on %d", pool.file, n, d.file, port)
		}
		image, _ := c["image"].(string)
		if _, err := os.Stat(dockerfileOf(image)); err != nil {
			t.Errorf("%s: image %s has no recipe: %v", d.file, image, err)
		}
	}
	for _, r := range byKind(ms, "HTTPRoute") {
		for i := range dig(r.obj, "spec", "rules").([]any) {
			ref := dig(r.obj, "spec", "rules", i, "backendRefs", 0)
			if dig(ref, "kind") != "InferencePool" || dig(ref, "group") != "inference.networking.k8s.io" || dig(ref, "name") != pool.name() {
				t.Errorf("%s: rule %d goes to %v, not the InferencePool %s", r.file, i, ref, pool.name())
			}
			for _, path := range []string{"/v1/chat/completions", "/v1/completions", "/v1/models"} {
				if !routeMatches(dig(r.obj, "spec", "rules", i, "matches"), path) {
					t.Errorf("%s: rule %d does not take %s", r.file, i, path)
				}
			}
		}
	}
	for _, o := range byKind(ms, "InferenceObjective") {
		if g := dig(o.obj, "spec", "poolRef", "group"); dig(o.obj, "spec", "poolRef", "name") != pool.name() || g != nil && g != "inference.networking.k8s.io" {
			t.Errorf("%s: poolRef %v, not the InferencePool %s", o.file, dig(o.obj, "spec", "poolRef"), pool.name())
		}
	}
}

// TestDeployServes starts ember serve with each Deployment's and image's
// arguments (the model swapped for a tiny one on this machine's CPU, the
// address for a loopback port) and asks it what the cluster will: the
// liveness and readiness probes' paths answer 200 once the model is
// loaded, and /metrics has every metric the endpoint picker reads, each a
// gauge.
func TestDeployServes(t *testing.T) {
	model := tinyModelFile(t)
	ms := loadManifests(t)
	type deployed struct {
		what, live, ready string
		args              []string
	}
	var all []deployed
	for _, d := range byKind(ms, "Deployment") {
		c := emberContainer(t, d)
		all = append(all, deployed{d.file, dig(c, "livenessProbe", "httpGet", "path").(string),
			dig(c, "readinessProbe", "httpGet", "path").(string), stringsOf(c["args"])})
	}
	for _, f := range dockerfiles(t) {
		img := readDockerfile(t, f)
		all = append(all, deployed{filepath.Base(f), "/health", "/ready", img.cmd})
	}
	for _, d := range all {
		t.Run(d.what, func(t *testing.T) {
			o := parseDeployed(t, d.what, d.args)
			if _, ok := registry.ModelOf(o.mf.model); !ok {
				t.Fatalf("%s serves %q, which is not a registry name (the image has no model file)", d.what, o.mf.model)
			}
			args := append(slices.Clone(d.args[1:]), "--model", model, "--backend", "cpu", "--addr", "127.0.0.1:0")
			addr := serveBinary(t, args...)
			if code, body := get(t, addr, d.live); code != http.StatusOK {
				t.Fatalf("liveness %s: %d %s", d.live, code, body)
			}
			deadline := time.Now().Add(20 * time.Second)
			for {
				code, body := get(t, addr, d.ready)
				if code == http.StatusOK {
					break
				}
				if code != http.StatusServiceUnavailable || time.Now().After(deadline) {
					t.Fatalf("readiness %s: %d %s", d.ready, code, body)
				}
				time.Sleep(50 * time.Millisecond)
			}
			_, page := get(t, addr, "/metrics")
			for _, name := range pickerMetrics {
				if !regexp.MustCompile(`(?m)^# TYPE `+regexp.QuoteMeta(name)+` gauge$`).MatchString(page) ||
					!regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(name)+`(\{[^}]*\})? \S+$`).MatchString(page) {
					t.Errorf("/metrics lacks the gauge %s the endpoint picker reads", name)
				}
			}
		})
	}
}

// TestDeployDockerfiles: each image is a distroless one whose entrypoint
// is the binary and whose default command ember serve takes, listening
// beyond loopback on the port it exposes; the CPU image builds without
// cgo (static), the Vulkan one with it (WebGPU) on a base with a C
// library, and copies the Vulkan loader in.
func TestDeployDockerfiles(t *testing.T) {
	files := dockerfiles(t)
	if len(files) != 2 {
		t.Fatalf("deploy/Dockerfile.*: %v, want the cpu and vulkan recipes", files)
	}
	for _, f := range files {
		img := readDockerfile(t, f)
		name := filepath.Base(f)
		if !strings.HasPrefix(img.base, "gcr.io/distroless/") {
			t.Errorf("%s: the image is based on %s, not distroless", name, img.base)
		}
		if !slices.Equal(img.entrypoint, []string{"/ember"}) {
			t.Errorf("%s: entrypoint %q", name, img.entrypoint)
		}
		o := parseDeployed(t, name, img.cmd)
		if port := listenPort(t, name, o.addr); img.expose != strconv.Itoa(port) {
			t.Errorf("%s: serve listens on %d, the image exposes %q", name, port, img.expose)
		}
		if _, err := os.Stat(f + ".dockerignore"); err != nil {
			t.Errorf("%s: no .dockerignore beside it: the build context would carry bin/, out/ and .git", name)
		}
		vulkan := strings.HasSuffix(name, ".vulkan")
		switch {
		case vulkan && (!strings.Contains(img.text, "CGO_ENABLED=1") || !strings.Contains(img.base, "/cc-") ||
			!strings.Contains(img.text, "libvulkan1") || o.mf.backend != "webgpu"):
			t.Errorf("%s: not a cgo build on distroless/cc with the Vulkan loader, serving --backend webgpu", name)
		case !vulkan && (!strings.Contains(img.text, "CGO_ENABLED=0") || !strings.Contains(img.base, "/static-") || o.mf.backend != "cpu"):
			t.Errorf("%s: not a static build on distroless/static, serving --backend cpu", name)
		}
	}
}

// parseDeployed parses args (ember's, from "serve") with ember serve's
// own flag parsing.
func parseDeployed(t *testing.T, what string, args []string) *serveOptions {
	t.Helper()
	if len(args) == 0 || args[0] != "serve" {
		t.Fatalf("%s: runs ember %q, not serve", what, args)
	}
	o, err := parseServe(args[1:])
	if err != nil {
		t.Fatalf("%s: ember serve refuses %q: %v", what, args[1:], err)
	}
	return o
}

// listenPort is the port of addr, which must not be a loopback address
// (a pod's probes and the gateway come from outside the container).
func listenPort(t *testing.T, what, addr string) int {
	t.Helper()
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatalf("%s: --addr %q: %v", what, addr, err)
	}
	if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
		t.Errorf("%s: --addr %s is loopback: nothing outside the container reaches it", what, addr)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 1 || port > 65535 {
		t.Fatalf("%s: --addr %q has no port", what, addr)
	}
	return port
}

// emberContainer is the Deployment's container named ember.
func emberContainer(t *testing.T, d manifest) map[string]any {
	t.Helper()
	for _, c := range dig(d.obj, "spec", "template", "spec", "containers").([]any) {
		if dig(c, "name") == "ember" {
			return c.(map[string]any)
		}
	}
	t.Fatalf("%s: no container named ember", d.file)
	return nil
}

// stringsOf is a YAML list of strings.
func stringsOf(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, s := range l {
		str, _ := s.(string)
		out = append(out, str)
	}
	return out
}

// dockerfileOf is the recipe of an image named ember:VARIANT.
func dockerfileOf(image string) string {
	_, variant, _ := strings.Cut(image, ":")
	return "../../deploy/Dockerfile." + variant
}

// routeMatches says whether an HTTPRoute rule's matches take path (no
// matches: every path).
func routeMatches(matches any, path string) bool {
	l, _ := matches.([]any)
	if len(l) == 0 {
		return true
	}
	for _, m := range l {
		v, _ := dig(m, "path", "value").(string)
		switch dig(m, "path", "type") {
		case "Exact":
			if path == v {
				return true
			}
		case "PathPrefix", nil:
			// A prefix matches whole path elements.
			if v == "/" || path == strings.TrimSuffix(v, "/") || strings.HasPrefix(path, strings.TrimSuffix(v, "/")+"/") {
				return true
			}
		}
	}
	return false
}

// get fetches a path of the server at addr.
func get(t *testing.T, addr, path string) (int, string) {
	t.Helper()
	resp, err := http.Get("http://" + addr + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// dockerfiles are deploy/'s image recipes.
func dockerfiles(t *testing.T) []string {
	t.Helper()
	all, err := filepath.Glob("../../deploy/Dockerfile.*")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range all {
		if !strings.HasSuffix(f, ".dockerignore") {
			out = append(out, f)
		}
	}
	return out
}

// image is what a Dockerfile's last stage says: its base, entrypoint,
// default command and exposed port.
type image struct {
	text, base, expose string
	entrypoint, cmd    []string
}

// readDockerfile reads the instructions of a Dockerfile (continued lines
// joined); ENTRYPOINT and CMD must be in exec form (a JSON list), as a
// shell form would need a shell distroless lacks.
func readDockerfile(t *testing.T, f string) image {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	img := image{text: string(b)}
	joined := regexp.MustCompile(`\\\n\s*`).ReplaceAllString(img.text, " ")
	for _, line := range strings.Split(joined, "\n") {
		line = strings.TrimSpace(line)
		instr, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		var list *[]string
		switch strings.ToUpper(instr) {
		case "FROM":
			img.base, _, _ = strings.Cut(rest, " ")
			img.entrypoint, img.cmd, img.expose = nil, nil, ""
		case "EXPOSE":
			img.expose = rest
		case "ENTRYPOINT":
			list = &img.entrypoint
		case "CMD":
			list = &img.cmd
		}
		if list != nil {
			if err := json.Unmarshal([]byte(rest), list); err != nil {
				t.Fatalf("%s: %s is not in exec form (a JSON list): %v", f, line, err)
			}
		}
	}
	return img
}
