package gputest

import (
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// testValidation checks that malformed graphs fail to compile with an
// error (never a panic), and that bad run-time data fails the run.
func testValidation(t *testing.T, be gpu.Backend) {
	type vcase struct {
		name  string
		build func(e *env)
	}
	f32 := gguf.F32
	cases := []vcase{
		{"tokens", func(e *env) { e.g.Tokens = 0 }},
		{"nil op", func(e *env) { e.g.Do(nil) }},
		{"matmul K mismatch", func(e *env) {
			W, _ := e.weight("w", f32, 1, 32, 8)
			In, _ := e.input("in", e.vals(33, 1), 33)
			e.g.Do(&gpu.MatMul{W: W, In: In, Out: e.output("out", f32, 8)})
		}},
		{"matmul nil out", func(e *env) {
			W, _ := e.weight("w", f32, 1, 32, 8)
			In, _ := e.input("in", e.vals(32, 1), 32)
			e.g.Do(&gpu.MatMul{W: W, In: In})
		}},
		{"read before write", func(e *env) {
			a := e.g.New("a", f32, 8)
			e.g.Do(&gpu.Scale{In: a, Out: e.output("out", f32, 8), S: 2})
		}},
		{"write to weight", func(e *env) {
			W, _ := e.weight("w", f32, 1, 8)
			In, _ := e.input("in", e.vals(8, 1), 8)
			e.g.Do(&gpu.Scale{In: In, Out: W, S: 2})
		}},
		{"view out of bounds", func(e *env) {
			In, _ := e.input("in", e.vals(16, 1), 16)
			v := e.g.View("v", In, 32, gpu.Shape4(16), nil)
			e.g.Do(&gpu.Scale{In: v, Out: e.output("out", f32, 16), S: 2})
		}},
		{"tensor of another graph", func(e *env) {
			other := gpu.NewGraph("other", 1)
			a := other.New("a", f32, 8)
			e.g.Do(&gpu.Scale{In: a, Out: e.output("out", f32, 8), S: 2})
		}},
		{"shape mismatch", func(e *env) {
			A, _ := e.input("a", e.vals(8, 1), 8)
			B, _ := e.input("b", e.vals(9, 1), 9)
			e.g.Do(&gpu.Add{A: A, B: B, Out: e.output("out", f32, 8)})
		}},
		{"rope odd dims", func(e *env) {
			In, _ := e.input("in", e.vals(16, 1), 16, 1, 1)
			e.g.Do(&gpu.Rope{In: In, Out: In, Dims: 7, FreqBase: 10000, FreqScale: 1, AttnFactor: 1})
		}},
		{"attention heads", func(e *env) {
			Q, _ := e.input("q", e.vals(8*3, 1), 8, 3, 1)
			ck := e.output("ck", gguf.F16, 16, 4)
			cv := e.output("cv", gguf.F16, 16, 4)
			e.g.Do(&gpu.Attention{Q: Q, CacheK: ck, CacheV: cv, Out: e.output("o", f32, 8, 3, 1), HKV: 2, DV: 8, Scale: 1})
		}},
		{"route k", func(e *env) {
			L, _ := e.input("l", e.vals(4, 1), 4, 1)
			e.g.Do(&gpu.Route{Logits: L, K: 5, IDs: e.output("i", gguf.I32, 5, 1), Weights: e.output("w", f32, 5, 1)})
		}},
		{"route bias shape", func(e *env) {
			L, _ := e.input("l", e.vals(4, 1), 4, 1)
			b, _ := e.input("b", e.vals(3, 1), 3)
			e.g.Do(&gpu.Route{Logits: L, Bias: b, K: 2, IDs: e.output("i", gguf.I32, 2, 1), Weights: e.output("w", f32, 2, 1)})
		}},
		{"topk k", func(e *env) {
			In, _ := e.input("x", e.vals(4, 1), 4, 1)
			e.g.Do(&gpu.TopK{In: In, K: 5, IDs: e.output("i", gguf.I32, 5, 1), Vals: e.output("v", f32, 5, 1)})
		}},
		{"topk ids type", func(e *env) {
			In, _ := e.input("x", e.vals(8, 1), 8, 1)
			e.g.Do(&gpu.TopK{In: In, K: 2, IDs: e.output("i", f32, 2, 1), Vals: e.output("v", f32, 2, 1)})
		}},
		{"attention values from keys and a value cache", func(e *env) {
			Q, _ := e.input("q", e.vals(8*2, 1), 8, 2, 1)
			ck := e.output("ck", gguf.F16, 8, 4)
			cv := e.output("cv", gguf.F16, 8, 4)
			e.g.Do(&gpu.Attention{Q: Q, CacheK: ck, CacheV: cv, VFromK: true, Out: e.output("o", f32, 8, 2, 1), HKV: 1, DV: 8, Scale: 1})
		}},
		{"attention caches of two lengths", func(e *env) {
			Q, _ := e.input("q", e.vals(8*2, 1), 8, 2, 1)
			ck := e.output("ck", gguf.F16, 8, 4)
			cv := e.output("cv", gguf.F16, 8, 5)
			e.g.Do(&gpu.Attention{Q: Q, CacheK: ck, CacheV: cv, Out: e.output("o", f32, 8, 2, 1), HKV: 1, DV: 8, Scale: 1})
		}},
		{"cache too short", func(e *env) {
			e.g.Tokens = 5
			K, _ := e.input("k", e.vals(8*5, 1), 8, 5)
			e.g.Do(&gpu.KVStore{K: K, CacheK: e.output("ck", gguf.F16, 8, 4)})
		}},
	}
	// The errors package gpu's operand checks give, which every backend
	// must report in the same words.
	shared := map[string]string{
		"attention heads":  "3 query heads cannot share 2 KV heads",
		"route k":          "choosing 5 of 4 experts",
		"route bias shape": "Bias b has shape [3 1 1 1], want {4}",
		"topk k":           "top 5 of 4 values",
		"topk ids type":    "IDs i is F32, want [I32]",
		"attention values from keys and a value cache": "CacheV must be nil",
		"attention caches of two lengths":              "CacheK holds 4 positions, CacheV 5",
		"cache too short":                              "CacheK ck holds 4 positions, fewer than the graph's 5 tokens",
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, be, uint64(i), 1)
			c.build(e)
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("compile panicked: %v", r)
					}
				}()
				_, err = be.Compile(e.g)
			}()
			if err == nil {
				t.Fatalf("compile accepted a malformed graph")
			}
			if want, ok := shared[c.name]; ok && !strings.Contains(err.Error(), want) {
				t.Fatalf("error %q, want the shared check's %q", err, want)
			}
			t.Logf("error (as expected): %v", err)
		})
	}

	runErr := func(t *testing.T, e *env, pos int, want string) {
		t.Helper()
		p, err := be.Compile(e.g)
		if err != nil {
			t.Fatalf("compile: %v", err)
		}
		err = p.Run(gpu.Params{Pos: pos})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("run: error %v, want one mentioning %q", err, want)
		}
	}
	t.Run("position beyond cache", func(t *testing.T) {
		e := newEnv(t, be, 1, 2)
		K, _ := e.input("k", e.vals(8*2, 1), 8, 2)
		e.g.Do(&gpu.KVStore{K: K, CacheK: e.output("ck", gguf.F16, 8, 6)})
		p, err := be.Compile(e.g)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Run(gpu.Params{Pos: 4}); err != nil {
			t.Fatalf("positions 4, 5 of 6 rejected: %v", err)
		}
		for _, pos := range []int{5, -1} {
			if err := p.Run(gpu.Params{Pos: pos}); err == nil {
				t.Fatalf("position %d with 2 tokens in a 6-row cache accepted", pos)
			}
		}
	})
	t.Run("token out of range", func(t *testing.T) {
		e := newEnv(t, be, 2, 2)
		Tab, _ := e.weight("tab", f32, 1, 8, 5)
		e.g.Do(&gpu.Embed{Table: Tab, Tokens: e.ints("tok", []int{1, 5}, 2), Out: e.output("o", f32, 8, 2)})
		runErr(t, e, 0, "5")
	})
	t.Run("expert out of range", func(t *testing.T) {
		e := newEnv(t, be, 3, 1)
		W, _ := e.weight("w", f32, 1, 32, 4, 3)
		In, _ := e.input("in", e.vals(32, 1), 32, 1, 1)
		e.g.Do(&gpu.MatMulID{W: W, In: In, IDs: e.ints("ids", []int{0, 3}, 2, 1), Out: e.output("o", f32, 4, 2, 1)})
		runErr(t, e, 0, "3")
	})
}
