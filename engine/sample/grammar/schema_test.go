package grammar

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

const testSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "maxLength": 12},
    "age": {"type": "integer", "minimum": -1, "exclusiveMaximum": 150},
    "color": {"enum": ["red", "green", "blue", null, 7]},
    "tags": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 4}, "maxItems": 3},
    "address": {
      "type": "object",
      "properties": {"street": {"type": "string", "maxLength": 8}, "zip": {"type": ["string", "null"], "format": "uuid"}},
      "required": ["street"],
      "additionalProperties": false
    },
    "born": {"type": "string", "format": "date"},
    "ratio": {"type": "number"},
    "kind": {"const": "person"},
    "tree": {"$ref": "#/$defs/node"},
    "either": {"anyOf": [{"type": "boolean"}, {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "null"}]}]},
    "extra": {"type": "object", "properties": {"a": {"type": "boolean"}}, "additionalProperties": {"type": "integer"}, "required": ["a"]}
  },
  "required": ["name", "color", "address", "kind"],
  "additionalProperties": false,
  "$defs": {
    "node": {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 2}}, "required": ["v"]}
  }
}`

// Sentences the schema's grammar writes are JSON that the schema accepts:
// random walks through the grammar, byte by byte.
func TestSchemaGrammarWritesValidJSON(t *testing.T) {
	g, err := FromJSONSchema([]byte(testSchema))
	if err != nil {
		t.Fatal(err)
	}
	m := newMachine(g, NewVocab(0, nil, nil))
	rng := rand.New(rand.NewPCG(5, 6))
	made := 0
	for walk := 0; walk < 300; walk++ {
		s, err := m.start()
		if err != nil {
			t.Fatal(err)
		}
		var text []byte
		for len(text) < 3000 {
			if m.states[s].accept && (m.only(s) || rng.IntN(4) == 0) {
				break
			}
			var next []byte
			var states []int32
			for b := 0; b < 256; b++ {
				ns, err := m.step(s, byte(b))
				if err != nil {
					t.Fatal(err)
				}
				if ns != dead {
					next, states = append(next, byte(b)), append(states, ns)
				}
			}
			if len(next) == 0 {
				t.Fatalf("a dead end after %q", text)
			}
			// Favour closing: quotes, brackets and braces end strings and
			// containers, so walks finish.
			i := rng.IntN(len(next))
			for j, b := range next {
				if strings.IndexByte(`"]}`, b) >= 0 && rng.IntN(3) == 0 {
					i = j
				}
			}
			text, s = append(text, next[i]), states[i]
		}
		if !m.states[s].accept {
			continue
		}
		made++
		if !json.Valid(text) {
			t.Fatalf("not JSON: %s", text)
		}
		if err := Validate([]byte(testSchema), text); err != nil {
			t.Fatalf("%s\n%v", text, err)
		}
	}
	if made < 100 {
		t.Fatalf("only %d of 300 walks ended", made)
	}
}

func TestSchemaGrammarAccepts(t *testing.T) {
	g, err := FromJSONSchema([]byte(testSchema))
	if err != nil {
		t.Fatal(err)
	}
	base := `"name":"Ann","color":"red","address":{"street":"Main"},"kind":"person"`
	for doc, want := range map[string]bool{
		`{` + base + `}`: true,
		`{"name": "Ann", "age": 149, "color": null, "tags": ["a", "bc"],` + "\n" + `  "address": {"street": "Main", "zip": null}, "born": "2024-02-29", "kind": "person"}`:                                            true,
		`{"name":"Ann","color":7,"address":{"street":"x","zip":"123e4567-e89b-12d3-a456-426614174000"},"kind":"person","tree":{"v":1,"kids":[{"v":2},{"v":3,"kids":[]}]},"either":[4,null],"extra":{"a":true,"b":3}}`: true,
		`{"name":"Ann","color":"red","address":{"street":"Main"},"kind":"person","extra":{"a":false,"a":1}}`:                                                                                                          false, // a known key again
		`{"name":"Ann","color":"pink","address":{"street":"Main"},"kind":"person"}`:                                                                                                                                   false,
		`{"color":"red","address":{"street":"Main"},"kind":"person"}`:                                                                                                                                                 false,
		`{` + base + `,"other":1}`:                                                false,
		`{"age":1,` + base + `}`:                                                  false, // properties in the schema's order
		`{` + base + `,"tags":["a","b","c","d"]}`:                                 false,
		`{` + base + `,"tags":["abcde"]}`:                                         false,
		`{` + base + `,"age":1.5}`:                                                false,
		`{` + base + `,"born":"2024-13-01"}`:                                      false,
		`{` + base + `,"either":[1]}`:                                             false,
		`{"name":"Ann","color":"red","address":{"street":"Main"},"kind":"human"}`: false,
	} {
		if ok, err := Match(g, doc); ok != want || err != nil {
			t.Errorf("%s: matched %v (%v), want %v", doc, ok, err, want)
		}
		if want {
			if err := Validate([]byte(testSchema), []byte(doc)); err != nil {
				t.Errorf("%s: the validator says %v", doc, err)
			}
		}
	}
}

func TestSchemaErrors(t *testing.T) {
	// notSchema: the error is ErrNotSchema (no JSON Schema at all), not
	// one of a schema ember cannot hold output to.
	for schema, c := range map[string]struct {
		says      string
		notSchema bool
	}{
		`{"type":"string","pattern":"^a"}`:                 {`"pattern"`, false},
		`{"type":"number","minimum":3}`:                    {`"minimum"`, false},
		`{"type":"object","required":["x"]}`:               {`"x"`, false},
		`{"$ref":"#/$defs/missing"}`:                       {"leads nowhere", false},
		`{"$ref":"https://example.com/s.json"}`:            {"only references inside", false},
		`{"type":"array","minItems":3,"maxItems":2}`:       {"maxItems", false},
		`{"type":"string","maxLength":5000}`:               {"maxLength", false},
		`false`:                                            {"nothing is allowed", false},
		`{"allOf":[{"type":"string"},{"type":"integer"}]}`: {"allOf", false},
		`{"type":"thing"}`:                                 {"type", true},
		`{"type":5}`:                                       {"type 5", true},
		`{"enum":[]}`:                                      {"enum", true},
		`{"enum":"a"}`:                                     {"enum", true},
		`{"anyOf":{}}`:                                     {"anyOf", true},
		`{"type":"object"`:                                 {"json schema", true},
		`{"type":"object"} x`:                              {"trailing", true},
		`[1]`:                                              {"not a schema object", true},
		`{"type":"object","properties":{"a":"string"}}`:    {"not a schema object", true},
		`{"type":"integer","minimum":"3"}`:                 {"must be a number", true},
		`{"type":"string","maxLength":-1}`:                 {"maxLength", true},
		`{"type":"array","minItems":1.5}`:                  {"minItems", true},
	} {
		_, err := FromJSONSchema([]byte(schema))
		if err == nil || !strings.Contains(err.Error(), c.says) || errors.Is(err, ErrNotSchema) != c.notSchema {
			t.Errorf("%s: %v (no schema: %v), want an error saying %s (no schema: %v)", schema, err, errors.Is(err, ErrNotSchema), c.says, c.notSchema)
		}
	}
	// Annotations are no constraint: they are ignored.
	if _, err := FromJSONSchema([]byte(`{"title":"T","description":"d","type":"object","properties":{"a":{"type":"string","default":"x","examples":["y"]}},"$schema":"https://json-schema.org/draft/2020-12/schema"}`)); err != nil {
		t.Fatal(err)
	}
}

func TestJSONObject(t *testing.T) {
	g := JSONObject()
	for doc, want := range map[string]bool{
		`{}`: true, `{"a":[1,2.5e3,{"b":null}],"c":"\u00e9\n"}`: true, "{\n  \"a\": true\n}": true,
		`[]`: false, `"x"`: false, `{"a":}`: false, `{"a":"\ud800"}`: false, `{"a":01}`: false,
	} {
		if ok, _ := Match(g, doc); ok != want {
			t.Errorf("%s: %v, want %v", doc, ok, want)
		}
	}
}

// Integer bounds: exactly the integers within them, checked around the
// bounds and at random inside and out.
func TestIntegerBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	cases := [][2]int64{{0, 0}, {1, 9}, {0, 100}, {7, 7}, {-5, 5}, {-100, -10}, {105, 399}, {19, 2001}, {1000, 1000}, {-1, 0}}
	for range 30 {
		a := rng.Int64N(2000000) - 1000000
		cases = append(cases, [2]int64{a, a + rng.Int64N(1000000)})
	}
	for _, c := range cases {
		schema := fmt.Sprintf(`{"type":"integer","minimum":%d,"maximum":%d}`, c[0], c[1])
		g, err := FromJSONSchema([]byte(schema))
		if err != nil {
			t.Fatal(err)
		}
		probe := []int64{c[0] - 1, c[0], c[0] + 1, c[1] - 1, c[1], c[1] + 1, 0, -1, 1}
		for range 40 {
			probe = append(probe, c[0]+rng.Int64N(c[1]-c[0]+1), c[0]-rng.Int64N(1000)-1, c[1]+rng.Int64N(1000)+1)
		}
		for _, x := range probe {
			ok, _ := Match(g, strconv.FormatInt(x, 10))
			if want := x >= c[0] && x <= c[1]; ok != want {
				t.Fatalf("[%d, %d]: %d matched %v", c[0], c[1], x, ok)
			}
		}
		for _, bad := range []string{"01", "-0", "+1", "1.0", ""} {
			if ok, _ := Match(g, bad); ok {
				t.Fatalf("[%d, %d]: %q matched", c[0], c[1], bad)
			}
		}
	}
	// One-sided and exclusive bounds.
	for schema, in := range map[string][]int64{
		`{"type":"integer","minimum":0}`:                               {0, 1, 99999},
		`{"type":"integer","exclusiveMinimum":0,"exclusiveMaximum":3}`: {1, 2},
		`{"type":"integer","maximum":-2}`:                              {-2, -3, -123456},
		`{"type":"integer","minimum":1.5}`:                             {2, 10},
	} {
		g, err := FromJSONSchema([]byte(schema))
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range in {
			if ok, _ := Match(g, strconv.FormatInt(x, 10)); !ok {
				t.Errorf("%s: %d refused", schema, x)
			}
		}
		for _, x := range []int64{-1, 3, -1, 1} {
			ok, _ := Match(g, strconv.FormatInt(x, 10))
			if err := Validate([]byte(schema), []byte(strconv.FormatInt(x, 10))); (err == nil) != ok {
				t.Errorf("%s: %d matched %v, the validator says %v", schema, x, ok, err)
			}
		}
	}
	if _, err := FromJSONSchema([]byte(`{"type":"number","minimum":1}`)); err == nil || !strings.Contains(err.Error(), "integers only") {
		t.Errorf("number bounds: %v", err)
	}
	if _, err := FromJSONSchema([]byte(`{"type":"integer","minimum":5,"maximum":4}`)); err == nil {
		t.Error("an empty range accepted")
	}
}
