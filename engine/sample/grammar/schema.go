package grammar

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The JSON grammar's building blocks, as llama.cpp's JSON-schema path
// writes them: whitespace is bounded (one space, or a newline and up to
// 20 blanks of indentation) and so are numbers' digits, so a model cannot
// pad or count forever; \u escapes never name half of a surrogate pair.
const jsonPrimitives = `ws ::= ( " " | "\n" [ \t]{0,20} )?
boolean ::= "true" | "false"
null ::= "null"
integer ::= "-"? ( [0-9] | [1-9] [0-9]{1,15} )
number ::= integer ( "." [0-9]{1,16} )? ( [eE] [-+]? [0-9]{1,3} )?
escape ::= "\\" ( ["\\/bfnrt] | "u" ( [0-9a-cA-CeEfF] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2} ) )
char ::= [^"\\\x00-\x1F] | escape
string ::= "\"" char* "\""
value ::= object | array | string | number | boolean | null
object ::= "{" ws ( string ws ":" ws value ( ws "," ws string ws ":" ws value )* ws )? "}"
array ::= "[" ws ( value ( ws "," ws value )* ws )? "]"
`

// Formats of strings the grammar knows (JSON Schema's "format").
var stringFormats = map[string]string{
	"date":      `"\"" date "\""`,
	"time":      `"\"" time "\""`,
	"date-time": `"\"" date "T" time "\""`,
	"uuid":      `"\"" [0-9a-fA-F]{8} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{4} "-" [0-9a-fA-F]{12} "\""`,
}

const formatRules = `date ::= [0-9]{4} "-" ( "0" [1-9] | "1" [0-2] ) "-" ( "0" [1-9] | [1-2] [0-9] | "3" [0-1] )
time ::= ( [01] [0-9] | "2" [0-3] ) ":" [0-5] [0-9] ":" [0-5] [0-9] ( "." [0-9]{1,6} )? ( "Z" | [+-] ( [01] [0-9] | "2" [0-3] ) ":" [0-5] [0-9] )
`

var (
	cacheMu sync.Mutex
	cache   = map[string]*Grammar{}
)

// cached compiles src once: requests with the same schema share a
// Grammar, and so the machine its Vocab keeps for it.
func cached(src string) (*Grammar, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if g, ok := cache[src]; ok {
		return g, nil
	}
	g, err := Parse(src)
	if err != nil {
		return nil, err
	}
	if len(cache) >= 256 {
		clear(cache)
	}
	cache[src] = g
	return g, nil
}

// JSONObject is the grammar of any JSON object (OpenAI's response_format
// json_object).
func JSONObject() *Grammar {
	g, err := cached("root ::= object\n" + jsonPrimitives)
	if err != nil {
		panic(err)
	}
	return g
}

// FromJSONSchema compiles a JSON Schema into the grammar of the JSON texts
// that satisfy it. It takes type (one or several), properties with
// required and additionalProperties (absent means none, as in llama.cpp),
// items, prefixItems, minItems and maxItems, enum, const, anyOf, oneOf,
// allOf of objects, $ref into $defs or definitions (recursion included),
// minimum, maximum and their exclusive forms on integers, minLength and
// maxLength, and the formats date, time, date-time and uuid. Annotations
// (title, description, default, examples ...) are ignored; a constraint
// it cannot enforce (pattern, bounds on other numbers, uniqueItems ...)
// is an error naming it, so a schema is never quietly weakened.
func FromJSONSchema(schema []byte) (*Grammar, error) {
	src, err := SchemaGBNF(schema)
	if err != nil {
		return nil, err
	}
	return cached(src)
}

// SchemaGBNF is FromJSONSchema's grammar as GBNF text.
func SchemaGBNF(schema []byte) (string, error) {
	b := NewBuilder()
	expr, err := b.Schema("root", schema)
	if err != nil {
		return "", err
	}
	return b.Text(expr), nil
}

// Builder assembles a grammar from JSON schemas and GBNF rules, for
// grammars made of several schemas (tool calls: one per tool).
type Builder struct{ c *converter }

// NewBuilder starts a grammar; the JSON building blocks (ws, string,
// value ...) are always there.
func NewBuilder() *Builder {
	return &Builder{c: &converter{rules: map[string]string{}}}
}

// Schema adds the rules of a JSON Schema and returns the expression for
// a value that satisfies it; name seeds the rule names.
func (b *Builder) Schema(name string, schema []byte) (string, error) {
	root, err := decodeOrdered(schema)
	if err != nil {
		return "", &notSchema{fmt.Errorf("json schema: %w", err)}
	}
	b.c.root, b.c.refs = root, map[string]string{}
	return b.c.visit(root, name, 0)
}

// Rule adds a rule (body in GBNF) under a name made from hint and returns
// the name.
func (b *Builder) Rule(hint, body string) string { return b.c.add(hint, body) }

// Text is the grammar's GBNF, with root as the root rule's body.
func (b *Builder) Text(root string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "root ::= %s\n", root)
	for _, name := range b.c.order {
		fmt.Fprintf(&sb, "%s ::= %s\n", name, b.c.rules[name])
	}
	sb.WriteString(jsonPrimitives)
	if b.c.formats {
		sb.WriteString(formatRules)
	}
	return sb.String()
}

// Grammar compiles the grammar whose root rule's body is root.
func (b *Builder) Grammar(root string) (*Grammar, error) { return cached(b.Text(root)) }

// Literal is text as a GBNF string literal.
func Literal(text string) string { return gbnfString(text) }

// object is a JSON object with its keys in the order written: properties
// come out of the grammar in the schema's order.
type object struct {
	keys []string
	vals map[string]any
}

func (o *object) get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

func decodeOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeAny(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the schema")
	}
	return v, nil
}

func decodeAny(dec *json.Decoder, depth int) (any, error) {
	if depth > 64 {
		return nil, errors.New("nested deeper than 64")
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '[' {
			list := []any{}
			for dec.More() {
				v, err := decodeAny(dec, depth+1)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token()
			return list, err
		}
		o := &object{vals: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := kt.(string)
			v, err := decodeAny(dec, depth+1)
			if err != nil {
				return nil, err
			}
			if _, dup := o.vals[k]; !dup {
				o.keys = append(o.keys, k)
			}
			o.vals[k] = v
		}
		_, err := dec.Token()
		return o, err
	}
	return tok, nil
}

// jsonText writes a decoded value back as compact JSON, keys in order.
func jsonText(v any) string {
	switch t := v.(type) {
	case *object:
		var b strings.Builder
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			b.WriteString(jsonText(t.vals[k]))
		}
		b.WriteByte('}')
		return b.String()
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = jsonText(x)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case json.Number:
		return t.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// gbnfString is s as a GBNF string literal.
func gbnfString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7F:
			fmt.Fprintf(&b, `\x%02X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

type converter struct {
	root    any
	rules   map[string]string
	order   []string
	refs    map[string]string // $ref -> its rule name
	formats bool
}

var nameRE = regexp.MustCompile(`[^a-zA-Z0-9-]+`)

// add defines a rule named after hint (made unique) and returns its name.
func (c *converter) add(hint, body string) string {
	base := strings.Trim(nameRE.ReplaceAllString(hint, "-"), "-")
	if base == "" || base == "root" {
		base = "root-value"
	}
	name := base
	for i := 1; c.taken(name); i++ {
		name = base + "-" + strconv.Itoa(i)
	}
	c.rules[name] = body
	c.order = append(c.order, name)
	return name
}

func (c *converter) taken(name string) bool {
	if _, ok := c.rules[name]; ok {
		return true
	}
	switch name {
	case "root", "ws", "boolean", "null", "integer", "number", "escape", "char", "string", "value", "object", "array", "date", "time":
		return true
	}
	return false
}

// Keywords: annotations are ignored; validations ember cannot enforce are
// refused by name.
var (
	annotations = map[string]bool{"title": true, "description": true, "default": true, "examples": true, "$schema": true,
		"$id": true, "$comment": true, "deprecated": true, "readOnly": true, "writeOnly": true, "$defs": true, "definitions": true,
		"contentEncoding": true, "contentMediaType": true, "discriminator": true, "nullable": true, "strict": true}
	unenforced = []string{"pattern", "multipleOf", "uniqueItems",
		"contains", "minContains", "maxContains", "not", "if", "then", "else", "dependentRequired", "dependentSchemas",
		"dependencies", "patternProperties", "propertyNames", "minProperties", "maxProperties", "unevaluatedProperties",
		"unevaluatedItems", "additionalItems"}
)

// ErrNotSchema matches (errors.Is) the errors of a schema that is no JSON
// Schema at all: not JSON, a subschema that is neither an object nor a
// boolean, an unknown type, a keyword's value of the wrong kind. Others
// are of a schema ember cannot hold output to (a pattern, a remote $ref,
// nothing allowed): a tool the model may call without constraint can
// still have one of those, not one of these.
var ErrNotSchema = errors.New("json schema: not a schema")

type notSchema struct{ err error }

func (e *notSchema) Error() string        { return e.err.Error() }
func (e *notSchema) Unwrap() error        { return e.err }
func (e *notSchema) Is(target error) bool { return target == ErrNotSchema }

func notSchemaf(format string, args ...any) error {
	return &notSchema{fmt.Errorf(format, args...)}
}

func (c *converter) visit(s any, name string, depth int) (string, error) {
	if depth > 64 {
		return "", errors.New("json schema: nested deeper than 64")
	}
	switch t := s.(type) {
	case bool:
		if !t {
			return "", fmt.Errorf("json schema: %s is false: nothing is allowed", name)
		}
		return "value", nil
	case *object:
		return c.visitObject(t, name, depth)
	}
	return "", notSchemaf("json schema: %s is %s, not a schema object", name, jsonText(s))
}

func (c *converter) visitObject(o *object, name string, depth int) (string, error) {
	for _, k := range unenforced {
		if _, ok := o.get(k); ok {
			return "", fmt.Errorf("json schema: %q (in %s) is not supported: ember cannot hold output to it", k, name)
		}
	}
	if ref, ok := o.get("$ref"); ok {
		r, _ := ref.(string)
		return c.ref(r, depth)
	}
	if v, ok := o.get("const"); ok {
		return gbnfString(jsonText(v)), nil
	}
	if v, ok := o.get("enum"); ok {
		list, _ := v.([]any)
		if len(list) == 0 {
			return "", notSchemaf("json schema: enum in %s must be a non-empty array", name)
		}
		var alts []string
		for _, x := range list {
			alts = append(alts, gbnfString(jsonText(x)))
		}
		return c.add(name, strings.Join(alts, " | ")), nil
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if v, ok := o.get(k); ok {
			list, _ := v.([]any)
			if len(list) == 0 {
				return "", notSchemaf("json schema: %s in %s must be a non-empty array", k, name)
			}
			var alts []string
			for i, x := range list {
				e, err := c.visit(x, fmt.Sprintf("%s-%d", name, i), depth+1)
				if err != nil {
					return "", err
				}
				alts = append(alts, e)
			}
			return c.add(name, strings.Join(alts, " | ")), nil
		}
	}
	if v, ok := o.get("allOf"); ok {
		merged, err := c.mergeAll(v, name)
		if err != nil {
			return "", err
		}
		return c.visit(merged, name, depth+1)
	}
	typ, hasType := o.get("type")
	if list, ok := typ.([]any); ok {
		var alts []string
		for _, x := range list {
			one := &object{keys: slices.Clone(o.keys), vals: map[string]any{}}
			for k, val := range o.vals {
				one.vals[k] = val
			}
			one.vals["type"] = x
			e, err := c.visit(one, fmt.Sprintf("%s-%v", name, x), depth+1)
			if err != nil {
				return "", err
			}
			alts = append(alts, e)
		}
		return c.add(name, strings.Join(alts, " | ")), nil
	}
	if !hasType {
		// Untyped: what the other keywords say, else any value.
		switch {
		case has(o, "properties") || has(o, "additionalProperties") || has(o, "required"):
			typ = "object"
		case has(o, "items") || has(o, "prefixItems"):
			typ = "array"
		default:
			return "value", nil
		}
	}
	switch typ {
	case "object":
		return c.objectRule(o, name, depth)
	case "array":
		return c.arrayRule(o, name, depth)
	case "string":
		return c.stringRule(o, name)
	case "integer":
		return c.integerRule(o, name)
	case "number", "boolean", "null":
		for _, k := range boundKeys {
			if has(o, k) {
				return "", fmt.Errorf("json schema: %q (in %s) is supported on integers only", k, name)
			}
		}
		return typ.(string), nil
	}
	return "", notSchemaf("json schema: type %s in %s is not one of object, array, string, integer, number, boolean, null", jsonText(typ), name)
}

func has(o *object, k string) bool { _, ok := o.get(k); return ok }

var boundKeys = []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}

// integerRule is an integer, within minimum and maximum (exclusive ones
// included) when the schema gives them, within 16 digits otherwise.
func (c *converter) integerRule(o *object, name string) (string, error) {
	const limit = 1e16 - 1 // the digits integer allows
	lo, hi := -limit, limit
	bounded := false
	for _, k := range boundKeys {
		v, ok := o.get(k)
		if !ok {
			continue
		}
		n, isNum := v.(json.Number)
		f, err := n.Float64()
		if !isNum || err != nil {
			return "", notSchemaf("json schema: %s in %s must be a number", k, name)
		}
		bounded = true
		switch k {
		case "minimum":
			lo = max(lo, math.Ceil(f))
		case "exclusiveMinimum":
			lo = max(lo, math.Floor(f)+1)
		case "maximum":
			hi = min(hi, math.Floor(f))
		case "exclusiveMaximum":
			hi = min(hi, math.Ceil(f)-1)
		}
	}
	if !bounded {
		return "integer", nil
	}
	if lo > hi {
		return "", fmt.Errorf("json schema: no integer in %s lies within its bounds", name)
	}
	lo, hi = max(lo, -limit), min(hi, limit)
	var alts []string
	if lo < 0 {
		// Negative numbers: "-" then the magnitudes from max(1, -hi) to -lo.
		alts = append(alts, `"-" ( `+digitRange(uint64(max(1, -hi)), uint64(-lo))+` )`)
	}
	if hi >= 0 {
		alts = append(alts, digitRange(uint64(max(0, lo)), uint64(hi)))
	}
	return c.add(name, strings.Join(alts, " | ")), nil
}

// digitRange is the decimal numerals (no leading zeros) of the integers
// from lo to hi, one alternative per run of numerals of one length.
func digitRange(lo, hi uint64) string {
	var alts []string
	for l := len(strconv.FormatUint(lo, 10)); l <= len(strconv.FormatUint(hi, 10)); l++ {
		a, b := uint64(math.Pow10(l-1)), uint64(math.Pow10(l))-1
		if l == 1 {
			a = 0
		}
		a, b = max(a, lo), min(b, hi)
		if a <= b {
			alts = append(alts, sameLength(strconv.FormatUint(a, 10), strconv.FormatUint(b, 10))...)
		}
	}
	return strings.Join(alts, " | ")
}

// sameLength is numerals of one length from a to b as GBNF sequences.
func sameLength(a, b string) []string {
	if a == b {
		return []string{gbnfString(a)}
	}
	p := 0
	for a[p] == b[p] {
		p++
	}
	prefix := ""
	if p > 0 {
		prefix = gbnfString(a[:p]) + " "
	}
	a, b = a[p:], b[p:]
	n := len(a) - 1
	any := func(k int) string {
		if k == 0 {
			return ""
		}
		return fmt.Sprintf(" [0-9]{%d}", k)
	}
	class := func(x, y byte) string {
		if x == y {
			return gbnfString(string(x))
		}
		return fmt.Sprintf("[%c-%c]", x, y)
	}
	var first, last []string
	lo, hi := a[0], b[0]
	if strings.Trim(a[1:], "0") != "" {
		// a's first digit, then at least the rest of a.
		for _, r := range sameLength(a[1:], strings.Repeat("9", n)) {
			first = append(first, prefix+gbnfString(a[:1])+" ( "+r+" )")
		}
		lo++
	}
	if strings.Trim(b[1:], "9") != "" {
		// b's first digit, then at most the rest of b.
		for _, r := range sameLength(strings.Repeat("0", n), b[1:]) {
			last = append(last, prefix+gbnfString(b[:1])+" ( "+r+" )")
		}
		hi--
	}
	out := first
	if lo <= hi {
		out = append(out, prefix+class(lo, hi)+any(n))
	}
	out = append(out, last...)
	return out
}

// ref resolves a local reference (#/$defs/X, #/definitions/X, #) to its
// rule, made once: recursive schemas become recursive rules.
func (c *converter) ref(r string, depth int) (string, error) {
	if name, ok := c.refs[r]; ok {
		return name, nil
	}
	if !strings.HasPrefix(r, "#") {
		return "", fmt.Errorf("json schema: $ref %q: only references inside the schema (#/...) are supported", r)
	}
	var target any = c.root
	for _, part := range strings.Split(strings.TrimPrefix(strings.TrimPrefix(r, "#"), "/"), "/") {
		if part == "" {
			continue
		}
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		o, ok := target.(*object)
		if !ok {
			return "", fmt.Errorf("json schema: $ref %q leads nowhere", r)
		}
		if target, ok = o.get(part); !ok {
			return "", fmt.Errorf("json schema: $ref %q leads nowhere", r)
		}
	}
	hint := "ref-" + r[strings.LastIndexByte(r, '/')+1:]
	name := c.add(hint, "")
	c.refs[r] = name
	body, err := c.visit(target, hint, depth+1)
	if err != nil {
		return "", err
	}
	c.rules[name] = body
	return name, nil
}

// mergeAll merges allOf's object schemas into one.
func (c *converter) mergeAll(v any, name string) (*object, error) {
	list, _ := v.([]any)
	out := &object{vals: map[string]any{}}
	props := &object{vals: map[string]any{}}
	var required []any
	for _, x := range list {
		o, ok := x.(*object)
		if ok && has(o, "$ref") {
			r, _ := o.vals["$ref"].(string)
			if _, err := c.ref(r, 0); err != nil {
				return nil, err
			}
			var target any = c.root
			for _, part := range strings.Split(strings.TrimPrefix(r, "#/"), "/") {
				if to, ok2 := target.(*object); ok2 {
					target = to.vals[part]
				}
			}
			o, ok = target.(*object)
		}
		if !ok || (has(o, "type") && o.vals["type"] != "object") {
			return nil, fmt.Errorf("json schema: allOf in %s: only object schemas can be combined", name)
		}
		if p, ok := o.get("properties"); ok {
			if po, ok := p.(*object); ok {
				for _, k := range po.keys {
					if _, dup := props.vals[k]; !dup {
						props.keys = append(props.keys, k)
					}
					props.vals[k] = po.vals[k]
				}
			}
		}
		if r, ok := o.get("required"); ok {
			if rl, ok := r.([]any); ok {
				required = append(required, rl...)
			}
		}
		if a, ok := o.get("additionalProperties"); ok {
			out.vals["additionalProperties"] = a
		}
	}
	out.keys = []string{"type", "properties", "required", "additionalProperties"}
	out.vals["type"], out.vals["properties"], out.vals["required"] = "object", props, required
	if _, ok := out.vals["additionalProperties"]; !ok {
		out.keys = out.keys[:3]
	}
	return out, nil
}

// objectRule is an object with the schema's properties in its order,
// required ones always, optional ones maybe, then (when
// additionalProperties allows them) other keys. first_i is "the
// properties from i on, none written yet", rest_i "from i on, after one".
func (c *converter) objectRule(o *object, name string, depth int) (string, error) {
	props, _ := o.vals["properties"].(*object)
	required := map[string]bool{}
	if r, ok := o.get("required"); ok {
		list, _ := r.([]any)
		for _, x := range list {
			if s, ok := x.(string); ok {
				required[s] = true
			}
		}
	}
	var keys []string
	if props != nil {
		keys = props.keys
	}
	for k := range required {
		if !slices.Contains(keys, k) {
			return "", fmt.Errorf("json schema: %s requires %q, which it does not define", name, k)
		}
	}
	kv := make([]string, len(keys))
	for i, k := range keys {
		e, err := c.visit(props.vals[k], name+"-"+k, depth+1)
		if err != nil {
			return "", err
		}
		kv[i] = c.add(name+"-"+k+"-kv", gbnfString(jsonText(k))+` ws ":" ws `+e)
	}
	extra := ""
	if ap, ok := o.get("additionalProperties"); ok {
		if b, isBool := ap.(bool); !isBool || b {
			value := "value"
			if !isBool {
				e, err := c.visit(ap, name+"-additional", depth+1)
				if err != nil {
					return "", err
				}
				value = e
			}
			key := "string"
			if len(keys) > 0 {
				key = c.add(name+"-additional-key", notStrings(keys))
			}
			extra = c.add(name+"-additional-kv", key+` ws ":" ws `+value)
		}
	}
	// From the end: rest and first for "after the last property".
	rest, first := `""`, `""`
	if extra != "" {
		rest = c.add(name+"-extra-rest", `( ws "," ws `+extra+` )*`)
		first = c.add(name+"-extra-first", `( `+extra+` ( ws "," ws `+extra+` )* )?`)
	}
	for i := len(keys) - 1; i >= 0; i-- {
		k := keys[i]
		after := kv[i] + " " + rest // property i, then the rest after it
		if required[k] {
			rest = c.add(name+"-rest-"+k, `ws "," ws `+after)
			first = c.add(name+"-first-"+k, after)
		} else {
			rest, first = c.add(name+"-rest-"+k, `ws "," ws `+after+" | "+rest), c.add(name+"-first-"+k, after+" | "+first)
		}
	}
	return c.add(name, `"{" ws `+first+` ws "}"`), nil
}

// notStrings is a JSON string that is none of words (keys other than the
// schema's own properties), over a trie of the words: at each node a
// character that leaves the trie frees the rest; the string may end at a
// node that ends no word.
func notStrings(words []string) string {
	type tnode struct {
		kids map[rune]*tnode
		end  bool
	}
	root := &tnode{kids: map[rune]*tnode{}}
	for _, w := range words {
		n := root
		for _, r := range w {
			k, ok := n.kids[r]
			if !ok {
				k = &tnode{kids: map[rune]*tnode{}}
				n.kids[r] = k
			}
			n = k
		}
		n.end = true
	}
	var walk func(n *tnode) string
	walk = func(n *tnode) string {
		rs := make([]rune, 0, len(n.kids))
		for r := range n.kids {
			rs = append(rs, r)
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
		var alts []string
		var cls strings.Builder
		for _, r := range rs {
			alts = append(alts, gbnfString(string(r))+" ( "+walk(n.kids[r])+" )")
			cls.WriteString(classChar(r))
		}
		// Leave the trie with a character none of the children has (an
		// escape always leaves it).
		alts = append(alts, `( [^"\\\x00-\x1F`+cls.String()+`] | escape ) char*`)
		if !n.end {
			alts = append(alts, `""`)
		}
		return strings.Join(alts, " | ")
	}
	return `"\"" ( ` + walk(root) + ` ) "\""`
}

func classChar(r rune) string {
	switch r {
	case ']', '\\', '-', '^', '"':
		return `\` + string(r)
	}
	if r < 0x20 {
		return fmt.Sprintf(`\x%02X`, r)
	}
	return string(r)
}

func (c *converter) arrayRule(o *object, name string, depth int) (string, error) {
	if p, ok := o.get("prefixItems"); ok {
		list, _ := p.([]any)
		var parts []string
		for i, x := range list {
			e, err := c.visit(x, fmt.Sprintf("%s-%d", name, i), depth+1)
			if err != nil {
				return "", err
			}
			parts = append(parts, e)
		}
		if len(parts) == 0 {
			return c.add(name, `"[" ws "]"`), nil
		}
		return c.add(name, `"[" ws `+strings.Join(parts, ` ws "," ws `)+` ws "]"`), nil
	}
	item := "value"
	if it, ok := o.get("items"); ok {
		e, err := c.visit(it, name+"-item", depth+1)
		if err != nil {
			return "", err
		}
		item = e
	}
	lo, hi, err := bounds(o, "minItems", "maxItems", name)
	if err != nil {
		return "", err
	}
	return c.add(name, `"[" ws `+repeatSep(item, `ws "," ws`, lo, hi)+` ws "]"`), nil
}

// repeatSep is item repeated lo to hi times (hi < 0: unbounded),
// separated by sep.
func repeatSep(item, sep string, lo, hi int) string {
	more := func(n int) string { // up to n more, each after a separator
		switch {
		case n < 0:
			return "( " + sep + " " + item + " )*"
		case n == 0:
			return ""
		}
		return fmt.Sprintf("( %s %s ){0,%d}", sep, item, n)
	}
	if lo == 0 {
		if hi == 0 {
			return `""`
		}
		m := hi - 1
		if hi < 0 {
			m = -1
		}
		return "( " + item + " " + more(m) + " )?"
	}
	out := item
	if lo > 1 {
		out += fmt.Sprintf(" ( %s %s ){%d}", sep, item, lo-1)
	}
	m := -1
	if hi >= 0 {
		m = hi - lo
	}
	return out + " " + more(m)
}

func bounds(o *object, minKey, maxKey, name string) (lo, hi int, err error) {
	hi = -1
	get := func(k string) (int, bool, error) {
		v, ok := o.get(k)
		if !ok {
			return 0, false, nil
		}
		n, isNum := v.(json.Number)
		i, perr := strconv.Atoi(string(n))
		if !isNum || perr != nil || i < 0 || i > 1000 {
			err := fmt.Errorf("json schema: %s in %s must be a whole number from 0 to 1000", k, name)
			if isNum && perr == nil && i > 1000 {
				return 0, false, err // a schema, beyond what ember holds output to
			}
			return 0, false, &notSchema{err}
		}
		return i, true, nil
	}
	if v, ok, err := get(minKey); err != nil {
		return 0, 0, err
	} else if ok {
		lo = v
	}
	if v, ok, err := get(maxKey); err != nil {
		return 0, 0, err
	} else if ok {
		hi = v
	}
	if hi >= 0 && hi < lo {
		return 0, 0, fmt.Errorf("json schema: %s %d is below %s %d in %s", maxKey, hi, minKey, lo, name)
	}
	return lo, hi, nil
}

func (c *converter) stringRule(o *object, name string) (string, error) {
	if f, ok := o.get("format"); ok {
		if rule, known := stringFormats[f.(string)]; known {
			c.formats = true
			return c.add(name, rule), nil
		}
	}
	lo, hi, err := bounds(o, "minLength", "maxLength", name)
	if err != nil {
		return "", err
	}
	if lo == 0 && hi < 0 {
		return "string", nil
	}
	rep := fmt.Sprintf("{%d,%d}", lo, hi)
	if hi < 0 {
		rep = fmt.Sprintf("{%d,}", lo)
	}
	return c.add(name, `"\"" char`+rep+` "\""`), nil
}
