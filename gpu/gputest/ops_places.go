package gputest

import (
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// testPlaces runs the ops that read positions with every token placed on
// its own (gpu.Params.Places): a decode batch of sequences at different
// positions and cache slots, a chunk of one sequence in a slot, and both
// at once (two tokens of one sequence beside another's). Rope rotates each
// token by its own position; KVStore writes it at its slot's row; each
// token attends to its own slot's rows up to its position, a row stored by
// the same step included.
func testPlaces(t *testing.T, be gpu.Backend) {
	type pcase struct {
		name        string
		independent bool
		places      []gpu.Place
	}
	cases := []pcase{
		{"batch", true, []gpu.Place{{Pos: 5, Base: 0}, {Pos: 0, Base: 36}, {Pos: 11, Base: 12}, {Pos: 2, Base: 24}}},
		{"chunk", false, []gpu.Place{{Pos: 3, Base: 12}, {Pos: 4, Base: 12}, {Pos: 5, Base: 12}}},
		{"mixed", false, []gpu.Place{{Pos: 7, Base: 24}, {Pos: 1, Base: 0}, {Pos: 8, Base: 24}}},
	}
	for ci, c := range cases {
		T := len(c.places)
		t.Run(c.name+"/rope", func(t *testing.T) {
			const hd, H = 64, 3
			e := newEnv(t, be, 60+uint64(ci), T)
			e.g.Independent = c.independent
			In, x := e.input("in", e.vals(hd*H*T, 1), hd, H, T)
			Out := e.output("out", gguf.F32, hd, H, T)
			op := gpu.Rope{In: In, Out: Out, Dims: 48, Mode: gpu.RopeNeoX, FreqBase: 10000, FreqScale: 1, AttnFactor: 1}
			e.g.Do(&op)
			e.runWith(gpu.Params{Places: c.places})
			var want, tol []float64
			for r := 0; r < H*T; r++ {
				y, tl := ropeRef(&op, x[r*hd:(r+1)*hd], c.places[r/H].Pos, nil)
				want = append(want, y...)
				tol = append(tol, tl...)
			}
			near(t, "out", readF(t, Out), want, tol)
		})
		for _, typ := range []gguf.TensorType{gguf.F32, gguf.F16} {
			for _, mla := range []bool{false, true} {
				t.Run(name(c.name, "/attention/", typ, "/mla=", mla), func(t *testing.T) {
					testPlacedAttention(t, be, 70+uint64(ci)*4+uint64(typ), c.independent, c.places, typ, mla)
				})
			}
		}
	}
	t.Run("refused", func(t *testing.T) {
		e := newEnv(t, be, 80, 2)
		K, _ := e.input("k", e.vals(16*2, 1), 16, 2)
		CK, _ := e.cache("ck", gguf.F32, 16, 10)
		e.g.Do(&gpu.KVStore{K: K, CacheK: CK})
		p, err := be.Compile(e.g)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range [][]gpu.Place{{{Pos: 0, Base: 0}}, {{Pos: 0, Base: 0}, {Pos: 3, Base: 7}}, {{Pos: -1, Base: 0}, {Pos: 0, Base: 0}}} {
			if err := p.Run(gpu.Params{Places: bad}); err == nil {
				t.Errorf("places %v ran", bad)
			}
		}
	})
}

// testPlacedAttention stores a step's keys and values at their places and
// has each token attend to its own slot.
func testPlacedAttention(t *testing.T, be gpu.Backend, seed uint64, independent bool, places []gpu.Place, typ gguf.TensorType, mla bool) {
	const rows = 40
	T := len(places)
	DK, DV, H, HKV := 40, 24, 6, 2
	if mla {
		DK, DV, H, HKV = 72, 56, 4, 1
	}
	e := newEnv(t, be, seed, T)
	e.g.Independent = independent
	K, k := e.input("k", e.vals(DK*HKV*T, 2), DK*HKV, T)
	CK, ck := e.cache("ck", typ, DK*HKV, rows)
	op := gpu.KVStore{K: K, CacheK: CK}
	var v, cv []float64
	var CV *gpu.Tensor
	if !mla {
		var V *gpu.Tensor
		V, v = e.input("v", e.vals(DV*HKV*T, 2), DV*HKV, T)
		CV, cv = e.cache("cv", typ, DV*HKV, rows)
		op.V, op.CacheV = V, CV
	}
	Q, q := e.input("q", e.vals(DK*H*T, 1), DK, H, T)
	Out := e.output("out", gguf.F32, DV, H, T)
	scale := float32(1 / math.Sqrt(float64(DK)))
	e.g.Do(&op)
	e.g.Do(&gpu.Attention{Q: Q, CacheK: CK, CacheV: CV, Out: Out, HKV: HKV, DV: DV, VFromK: mla, Scale: scale})
	e.runWith(gpu.Params{Places: places})
	round := func(x float64) float64 {
		if typ == gguf.F16 {
			return half64(x)
		}
		return x
	}
	store := func(cache, x []float64, w int) {
		for tt, p := range places {
			for d := 0; d < w; d++ {
				cache[(p.Base+p.Pos)*w+d] = round(x[tt*w+d])
			}
		}
	}
	store(ck, k, DK*HKV)
	if !mla {
		store(cv, v, DV*HKV)
	}
	near(t, "cache_k", readF(t, CK), ck, []float64{0})
	if !mla {
		near(t, "cache_v", readF(t, CV), cv, []float64{0})
	}
	var want, tol []float64
	for tt, p := range places {
		qt := q[tt*DK*H : (tt+1)*DK*H]
		var vs []float64
		if !mla {
			vs = cv[p.Base*DV*HKV:]
		}
		w, tl := attentionRef(qt, DK, H, 1, ck[p.Base*DK*HKV:], vs, HKV, DV, mla, float64(scale), p.Pos, typ == gguf.F16)
		want = append(want, w...)
		tol = append(tol, tl...)
	}
	near(t, "out", readF(t, Out), want, tol)
}
