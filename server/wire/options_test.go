package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine"
)

// Options travel to JavaScript clients (the browser engine behind a
// relay) as they were written: float32 values as their shortest decimal,
// seeds as numbers within 2^53 and as strings beyond, so a JavaScript
// number never rounds them.
func TestOptionsAsWritten(t *testing.T) {
	var o Options
	if err := json.Unmarshal([]byte(`{"temperature":0.8,"top_p":0.9,"min_p":0.1,"repeat_penalty":1.1,"seed":"18446744073709551615"}`), &o); err != nil {
		t.Fatal(err)
	}
	var req engine.Request
	if err := o.Apply(&req, 1000, 100); err != nil {
		t.Fatal(err)
	}
	if req.Sample.Seed != 1<<64-1 {
		t.Fatalf("seed %d", req.Sample.Seed)
	}
	b, err := json.Marshal(OptionsOf(req))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"temperature":0.8,`, `"top_p":0.9,`, `"min_p":0.1,`, `"repeat_penalty":1.1,`, `"seed":-1`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
	for in, out := range map[string]string{
		`12345`: `12345`, `"12345"`: `12345`, `9007199254740992`: `9007199254740992`,
		`9007199254740993`: `"9007199254740993"`, `"9223372036854775808"`: `"9223372036854775808"`, `-5`: `-5`,
		`"-9007199254740993"`: `"18437736874454810623"`,
	} {
		var s Seed
		if err := json.Unmarshal([]byte(in), &s); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if b, _ := json.Marshal(s); string(b) != out {
			t.Errorf("seed %s travels as %s, want %s", in, b, out)
		}
	}
	for _, bad := range []string{`1.5`, `"x"`, `true`, `"1e3"`, `18446744073709551616`} {
		var s Seed
		if err := json.Unmarshal([]byte(bad), &s); err == nil {
			t.Errorf("seed %s accepted", bad)
		}
	}
	// A seed ember picks itself is within 2^53.
	for range 100 {
		var r engine.Request
		(&Options{}).Apply(&r, 10, 10)
		if r.Sample.Seed > maxExact {
			t.Fatalf("random seed %d", r.Sample.Seed)
		}
	}
}
