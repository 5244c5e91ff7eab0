package gputest

import (
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// testGraph runs a small attention block as a prefill graph and then a
// decode graph over shared F16 caches, Params.Pos advancing, against a
// float64 reference of the whole block:
//
//	n = rmsnorm(x)·w;  q, k, v = Wq·n, Wk·n, Wv·n;  rope q, k in place (NeoX)
//	store k, v at Pos+t;  a = attention(q, caches);  out = x + Wo·a
func testGraph(t *testing.T, be gpu.Backend) {
	const D, H, HKV, hd, ctx = 64, 4, 2, 16, 12
	e := newEnv(t, be, 1234, 3)
	bufs := map[string]gpu.Buffer{}
	vals := map[string][]float64{}
	weight := func(name string, dims ...int) {
		tn, v := e.weight(name, gguf.F16, 0.3, dims...)
		bufs[name], vals[name] = tn.Buf, v
	}
	weight("wq", D, H*hd)
	weight("wk", D, HKV*hd)
	weight("wv", D, HKV*hd)
	weight("wo", H*hd, D)
	wn := e.vals(D, 1)
	nb, _ := be.Alloc("norm", gguf.F32, gpu.Shape4(D))
	nb.Write(0, f32bytes(wn))
	wn = round32(wn)
	ck, _ := be.Alloc("ck", gguf.F16, gpu.Shape4(HKV*hd, ctx))
	cv, _ := be.Alloc("cv", gguf.F16, gpu.Shape4(HKV*hd, ctx))
	rope := gpu.Rope{Dims: hd, Mode: gpu.RopeNeoX, FreqBase: 10000, FreqScale: 1, AttnFactor: 1}
	scale := float32(1 / math.Sqrt(hd))

	build := func(T int) (gpu.Program, gpu.Buffer, gpu.Buffer) {
		g := gpu.NewGraph(name("block", T), T)
		bind := func(n string) *gpu.Tensor { return g.Bind(n, bufs[n]) }
		xb, _ := be.Alloc("x", gguf.F32, gpu.Shape4(D, T))
		ob, _ := be.Alloc("out", gguf.F32, gpu.Shape4(D, T))
		x, out := g.Bind("x", xb), g.Bind("out", ob)
		n := g.New("n", gguf.F32, D, T)
		g.Do(&gpu.RMSNorm{In: x, Weight: g.Bind("norm", nb), Out: n, Eps: 1e-5})
		q := g.New("q", gguf.F32, H*hd, T)
		k := g.New("k", gguf.F32, HKV*hd, T)
		v := g.New("v", gguf.F32, HKV*hd, T)
		g.Do(&gpu.MatMul{W: bind("wq"), In: n, Out: q})
		g.Do(&gpu.MatMul{W: bind("wk"), In: n, Out: k})
		g.Do(&gpu.MatMul{W: bind("wv"), In: n, Out: v})
		q3, k3 := g.Reshape(q, hd, H, T), g.Reshape(k, hd, HKV, T)
		rq, rk := rope, rope
		rq.In, rq.Out, rk.In, rk.Out = q3, q3, k3, k3
		g.Do(&rq)
		g.Do(&rk)
		CK, CV := g.Bind("ck", ck), g.Bind("cv", cv)
		g.Do(&gpu.KVStore{K: k, V: v, CacheK: CK, CacheV: CV})
		a := g.New("a", gguf.F32, hd, H, T)
		g.Do(&gpu.Attention{Q: q3, CacheK: CK, CacheV: CV, Out: a, HKV: HKV, DV: hd, Scale: scale})
		o := g.New("o", gguf.F32, D, T)
		g.Do(&gpu.MatMul{W: bind("wo"), In: g.Reshape(a, H*hd, T), Out: o})
		g.Do(&gpu.Add{A: x, B: o, Out: out})
		p, err := be.Compile(g)
		if err != nil {
			t.Fatalf("compile %d-token block: %v", T, err)
		}
		// Backends may fuse ops (a product and the residual add after it),
		// so only a program with no kernels at all is surely incomplete.
		if p.Kernels() < 1 {
			t.Errorf("%d-token block: no kernels for %d ops", T, len(g.Ops))
		}
		return p, xb, ob
	}
	prefill, px, pout := build(3)
	decode, dx, dout := build(1)

	// The reference keeps its own caches (values rounded to f16 as stored).
	rk := make([]float64, HKV*hd*ctx)
	rv := make([]float64, HKV*hd*ctx)
	mat := func(w []float64, x []float64, K, N int) []float64 {
		y := make([]float64, N)
		for i := 0; i < N; i++ {
			for j := 0; j < K; j++ {
				y[i] += w[i*K+j] * x[j]
			}
		}
		return y
	}
	ref := func(x []float64, pos, T int) []float64 {
		var q []float64
		for tt := 0; tt < T; tt++ {
			xt := x[tt*D : (tt+1)*D]
			n := rmsRef(xt, wn, 1e-5)
			qt, kt, vt := mat(vals["wq"], n, D, H*hd), mat(vals["wk"], n, D, HKV*hd), mat(vals["wv"], n, D, HKV*hd)
			for h := 0; h < H; h++ {
				y, _ := ropeRef(&rope, qt[h*hd:(h+1)*hd], pos+tt, nil)
				q = append(q, y...)
			}
			for h := 0; h < HKV; h++ {
				y, _ := ropeRef(&rope, kt[h*hd:(h+1)*hd], pos+tt, nil)
				copy(kt[h*hd:], y)
			}
			for i := range kt {
				rk[(pos+tt)*HKV*hd+i] = half64(kt[i])
				rv[(pos+tt)*HKV*hd+i] = half64(vt[i])
			}
		}
		a, _ := attentionRef(q, hd, H, T, rk, rv, HKV, hd, false, float64(scale), pos, true)
		out := make([]float64, D*T)
		for tt := 0; tt < T; tt++ {
			o := mat(vals["wo"], a[tt*H*hd:(tt+1)*H*hd], H*hd, D)
			for i := range o {
				out[tt*D+i] = x[tt*D+i] + o[i]
			}
		}
		return out
	}
	step := func(p gpu.Program, xb, ob gpu.Buffer, pos, T int) {
		x := round32(e.vals(D*T, 1))
		xb.Write(0, f32bytes(x))
		if err := p.Run(gpu.Params{Pos: pos}); err != nil {
			t.Fatalf("run at %d: %v", pos, err)
		}
		b := make([]byte, 4*D*T)
		ob.Read(0, b)
		got := make([]float64, D*T)
		for i := range got {
			got[i] = float64(math.Float32frombits(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24))
		}
		want := ref(x, pos, T)
		// Keys and values are rounded to f16 on both sides, but from
		// float32 and float64 inputs that can differ by an ulp: one f16
		// step (2^-11) of a cached value moves the output by a few 1e-4.
		near(t, name("block at ", pos), got, want, relTol(want, 2e-3, 2e-3))
	}
	step(prefill, px, pout, 0, 3)
	for pos := 3; pos < 8; pos++ {
		step(decode, dx, dout, pos, 1)
	}
	step(prefill, px, pout, 8, 3) // a second chunk over the history
}
