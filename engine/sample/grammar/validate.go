package grammar

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Validate checks a JSON document against a JSON Schema, for the keywords
// FromJSONSchema enforces (the same reading of them: additionalProperties
// absent allows no other keys), and returns the first violation. It is
// the check on what a constrained generation wrote, independent of the
// grammar that wrote it.
func Validate(schema, doc []byte) error {
	s, err := decodeOrdered(schema)
	if err != nil {
		return fmt.Errorf("json schema: %w", err)
	}
	d, err := decodeOrdered(doc)
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return (&validator{root: s}).check(s, d, "$", 0)
}

type validator struct{ root any }

var formatRE = map[string]*regexp.Regexp{
	"date":      regexp.MustCompile(`^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$`),
	"time":      regexp.MustCompile(`^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$`),
	"date-time": regexp.MustCompile(`^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$`),
	"uuid":      regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`),
}

func (v *validator) check(s, d any, path string, depth int) error {
	if depth > 200 {
		return fmt.Errorf("%s: too deep", path)
	}
	if b, ok := s.(bool); ok {
		if !b {
			return fmt.Errorf("%s: nothing is allowed", path)
		}
		return nil
	}
	o, ok := s.(*object)
	if !ok {
		return fmt.Errorf("%s: the schema is not an object", path)
	}
	if r, ok := o.get("$ref"); ok {
		var target any = v.root
		for _, part := range strings.Split(strings.TrimPrefix(strings.TrimPrefix(r.(string), "#"), "/"), "/") {
			if part != "" {
				target, _ = target.(*object).get(part)
			}
		}
		return v.check(target, d, path, depth+1)
	}
	if c, ok := o.get("const"); ok && jsonText(c) != jsonText(d) {
		return fmt.Errorf("%s: %s is not the constant %s", path, jsonText(d), jsonText(c))
	}
	if e, ok := o.get("enum"); ok {
		found := false
		for _, x := range e.([]any) {
			found = found || jsonText(x) == jsonText(d)
		}
		if !found {
			return fmt.Errorf("%s: %s is not in the enum", path, jsonText(d))
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if list, ok := o.get(k); ok {
			n := 0
			for _, x := range list.([]any) {
				if v.check(x, d, path, depth+1) == nil {
					n++
				}
			}
			if n == 0 || (k == "oneOf" && n > 1) {
				return fmt.Errorf("%s: %s matches %d of the %s schemas", path, jsonText(d), n, k)
			}
		}
	}
	if list, ok := o.get("allOf"); ok {
		for _, x := range list.([]any) {
			if err := v.check(x, d, path, depth+1); err != nil {
				return err
			}
		}
	}
	if t, ok := o.get("type"); ok {
		types, isList := t.([]any)
		if !isList {
			types = []any{t}
		}
		match := false
		for _, x := range types {
			match = match || isType(x.(string), d)
		}
		if !match {
			return fmt.Errorf("%s: %s is not of type %s", path, jsonText(d), jsonText(t))
		}
	}
	switch dv := d.(type) {
	case *object:
		props, _ := o.vals["properties"].(*object)
		if req, ok := o.get("required"); ok {
			for _, k := range req.([]any) {
				if _, ok := dv.get(k.(string)); !ok {
					return fmt.Errorf("%s: %q is missing", path, k)
				}
			}
		}
		ap, hasAP := o.get("additionalProperties")
		for _, k := range dv.keys {
			if ps, ok := props.get(k); ok {
				if err := v.check(ps, dv.vals[k], path+"."+k, depth+1); err != nil {
					return err
				}
				continue
			}
			if b, isBool := ap.(bool); !hasAP || (isBool && !b) {
				return fmt.Errorf("%s: %q is not a property of the schema", path, k)
			} else if !isBool {
				if err := v.check(ap, dv.vals[k], path+"."+k, depth+1); err != nil {
					return err
				}
			}
		}
	case []any:
		if p, ok := o.get("prefixItems"); ok {
			list := p.([]any)
			if len(dv) != len(list) {
				return fmt.Errorf("%s: %d items, the tuple has %d", path, len(dv), len(list))
			}
			for i := range list {
				if err := v.check(list[i], dv[i], fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
					return err
				}
			}
		}
		if it, ok := o.get("items"); ok {
			for i, x := range dv {
				if err := v.check(it, x, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
					return err
				}
			}
		}
		if err := inBounds(o, "minItems", "maxItems", len(dv), path); err != nil {
			return err
		}
	case json.Number:
		x, _ := dv.Float64()
		for _, k := range boundKeys {
			b, ok := o.get(k)
			if !ok {
				continue
			}
			f, _ := b.(json.Number).Float64()
			if (k == "minimum" && x < f) || (k == "maximum" && x > f) || (k == "exclusiveMinimum" && x <= f) || (k == "exclusiveMaximum" && x >= f) {
				return fmt.Errorf("%s: %s is outside %s %s", path, dv, k, b)
			}
		}
	case string:
		if err := inBounds(o, "minLength", "maxLength", utf8.RuneCountInString(dv), path); err != nil {
			return err
		}
		if f, ok := o.get("format"); ok {
			if re := formatRE[f.(string)]; re != nil && !re.MatchString(dv) {
				return fmt.Errorf("%s: %q is not a %s", path, dv, f)
			}
		}
	}
	return nil
}

func inBounds(o *object, minKey, maxKey string, n int, path string) error {
	if v, ok := o.get(minKey); ok {
		if m, _ := v.(json.Number).Int64(); int64(n) < m {
			return fmt.Errorf("%s: %d is below %s %d", path, n, minKey, m)
		}
	}
	if v, ok := o.get(maxKey); ok {
		if m, _ := v.(json.Number).Int64(); int64(n) > m {
			return fmt.Errorf("%s: %d is above %s %d", path, n, maxKey, m)
		}
	}
	return nil
}

func isType(t string, d any) bool {
	switch t {
	case "object":
		_, ok := d.(*object)
		return ok
	case "array":
		_, ok := d.([]any)
		return ok
	case "string":
		_, ok := d.(string)
		return ok
	case "boolean":
		_, ok := d.(bool)
		return ok
	case "null":
		return d == nil
	case "number":
		_, ok := d.(json.Number)
		return ok
	case "integer":
		n, ok := d.(json.Number)
		return ok && !strings.ContainsAny(string(n), ".eE")
	}
	return false
}
