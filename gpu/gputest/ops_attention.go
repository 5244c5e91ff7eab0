package gputest

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// cache allocates a KV cache of ctx rows of width values, filled with
// random history, and returns the values as stored.
func (e *env) cache(name string, typ gguf.TensorType, width, ctx int) (*gpu.Tensor, []float64) {
	e.t.Helper()
	x := e.vals(width*ctx, 1)
	b, err := e.be.Alloc(name, typ, gpu.Shape4(width, ctx))
	if err != nil {
		e.fatal("alloc %s: %v", name, err)
	}
	var data []byte
	if typ == gguf.F16 {
		data = make([]byte, 2*len(x))
		for i, v := range x {
			h := half64(v)
			x[i] = h
			binary.LittleEndian.PutUint16(data[2*i:], halfBits(h))
		}
	} else {
		x = round32(x)
		data = f32bytes(x)
	}
	if err := b.Write(0, data); err != nil {
		e.fatal("write %s: %v", name, err)
	}
	return e.g.Bind(name, b), x
}

// halfBits encodes a value exactly representable as a normal or subnormal
// half.
func halfBits(h float64) uint16 {
	var s uint16
	if math.Signbit(h) {
		s, h = 0x8000, -h
	}
	if h < math.Ldexp(1, -14) {
		return s | uint16(h*math.Ldexp(1, 24))
	}
	f, exp := math.Frexp(h)
	return s | uint16(exp+14)<<10 | uint16(f*2048-1024)
}

func testKVStore(t *testing.T, be gpu.Backend) {
	for _, typ := range []gguf.TensorType{gguf.F32, gguf.F16} {
		t.Run(typ.String(), func(t *testing.T) {
			const DK, DV, T, ctx, pos = 48, 40, 3, 11, 5
			e := newEnv(t, be, 21+uint64(typ), T)
			K, k := e.input("k", e.vals(DK*T, 3), DK, T)
			V, v := e.input("v", e.vals(DV*T, 3), DV, T)
			CK, ck := e.cache("ck", typ, DK, ctx)
			CV, cv := e.cache("cv", typ, DV, ctx)
			e.g.Do(&gpu.KVStore{K: K, V: V, CacheK: CK, CacheV: CV})
			e.run(pos)
			round := func(x float64) float64 {
				if typ == gguf.F16 {
					return half64(x)
				}
				return x
			}
			for _, c := range []struct {
				name string
				buf  *gpu.Tensor
				hist []float64
				new  []float64
				w    int
			}{{"cache_k", CK, ck, k, DK}, {"cache_v", CV, cv, v, DV}} {
				want := append([]float64(nil), c.hist...)
				for tt := 0; tt < T; tt++ {
					for d := 0; d < c.w; d++ {
						want[(pos+tt)*c.w+d] = round(c.new[tt*c.w+d])
					}
				}
				// Stores are exact (F32) or round to nearest even (F16);
				// every other row keeps its history.
				near(t, c.name, readF(t, c.buf), want, []float64{0})
			}
		})
	}
}

// attentionRef is causal attention of token t (at pos+t) over cached rows.
// Against an F16 cache (half) the op follows llama.cpp: the query is
// rounded to half before the products with keys, and the normalised
// weights are rounded to half before the products with values.
func attentionRef(q []float64, DK, H, T int, ck []float64, cv []float64, HKV, DV int, vFromK bool, scale float64, pos int, half bool) (out, tol []float64) {
	group := H / HKV
	out = make([]float64, DV*H*T)
	tol = make([]float64, DV*H*T)
	for tt := 0; tt < T; tt++ {
		for h := 0; h < H; h++ {
			kvh := h / group
			qh := append([]float64(nil), q[(h+H*tt)*DK:(h+H*tt+1)*DK]...)
			if half {
				for d := range qh {
					qh[d] = half64(qh[d])
				}
			}
			n := pos + tt + 1
			s := make([]float64, n)
			m := math.Inf(-1)
			var logitErr, vmax float64
			for j := 0; j < n; j++ {
				var abs, big float64
				for d := 0; d < DK; d++ {
					kv := ck[j*DK*HKV+kvh*DK+d]
					s[j] += qh[d] * kv
					abs += math.Abs(qh[d] * kv)
					big = math.Max(big, math.Abs(qh[d]*kv))
				}
				s[j] *= scale
				m = math.Max(m, s[j])
				// float32 dot products: DK roundings of the absolute sum;
				// with half queries, one value may round the other way.
				e := (float64(DK)*6e-8 + 1e-7) * abs
				if half {
					e += big * 0x1p-10
				}
				logitErr = math.Max(logitErr, e*math.Abs(scale))
			}
			var sum, pmax float64
			for j := range s {
				s[j] = math.Exp(s[j] - m)
				sum += s[j]
			}
			for j := range s {
				s[j] /= sum
				pmax = math.Max(pmax, s[j])
				if half {
					s[j] = half64(s[j])
				}
			}
			o := out[(h+H*tt)*DV : (h+H*tt+1)*DV]
			for j := range s {
				for d := 0; d < DV; d++ {
					var v float64
					if vFromK {
						v = ck[j*DK*HKV+kvh*DK+d]
					} else {
						v = cv[j*DV*HKV+kvh*DV+d]
					}
					vmax = math.Max(vmax, math.Abs(v))
					o[d] += s[j] * v
				}
			}
			// A logit error δ moves each weight by about 2δ relative; the
			// exponentials and the sums add a few float32 ulp.
			slack := 0.0
			if half {
				slack = pmax * 0x1p-10 // a weight that rounds the other way
			}
			for d := range o {
				tol[(h+H*tt)*DV+d] = vmax * (4*logitErr + 2e-6 + slack)
			}
		}
	}
	return out, tol
}

func testAttention(t *testing.T, be gpu.Backend) {
	type acase struct {
		name           string
		DK, DV, H, HKV int
		vFromK         bool
		T, pos         int
	}
	cases := []acase{
		{"mha", 40, 40, 4, 4, false, 1, 7},
		{"gqa3", 40, 24, 6, 2, false, 3, 5},
		{"mqa", 32, 32, 4, 1, false, 17, 0},
		{"mla", 72, 56, 5, 1, true, 3, 9},
		{"mla-decode", 72, 56, 5, 1, true, 1, 12},
		// Four query heads a key head (WebGPU's prefill takes them
		// together): grouped and latent.
		{"gqa4", 40, 24, 8, 2, false, 5, 3},
		{"mla4", 72, 56, 8, 1, true, 4, 9},
		// Keys long enough for WebGPU's 24-pair loads (an MLA row of the
		// deepseek2 models, 576 values), and one whose lanes end in each
		// of its three loops.
		{"mla576-decode", 576, 512, 2, 1, true, 1, 21},
		{"mla576", 576, 512, 2, 1, true, 3, 9},
		{"mha250-decode", 250, 250, 2, 2, false, 1, 13},
		// Long contexts: every thread of WebGPU's 256-thread values pass
		// takes several rows, and 1100 rows pass its chunk of 1024
		// weights (the other cases stop at 40 rows).
		{"mha64-decode-900", 64, 64, 2, 2, false, 1, 899},
		{"mla576-decode-1100", 576, 512, 2, 1, true, 1, 1099},
	}
	for ci, c := range cases {
		for _, typ := range []gguf.TensorType{gguf.F32, gguf.F16} {
			t.Run(name(c.name, "/", typ), func(t *testing.T) {
				ctx := max(40, c.pos+c.T)
				e := newEnv(t, be, uint64(ci)*7+uint64(typ), c.T)
				// Q as a strided view: heads of DK values in rows of DK+8.
				qs := c.DK + 8
				base, qb := e.input("qbase", e.vals(qs*c.H*c.T, 1), qs, c.H, c.T)
				Q := e.g.View("q", base, 16, gpu.Shape4(c.DK, c.H, c.T), &[4]int{4, 4 * qs, 4 * qs * c.H, 4 * qs * c.H * c.T})
				q := make([]float64, c.DK*c.H*c.T)
				for r := 0; r < c.H*c.T; r++ {
					copy(q[r*c.DK:(r+1)*c.DK], qb[r*qs+4:r*qs+4+c.DK])
				}
				CK, ck := e.cache("ck", typ, c.DK*c.HKV, ctx)
				var CV *gpu.Tensor
				var cv []float64
				if !c.vFromK {
					CV, cv = e.cache("cv", typ, c.DV*c.HKV, ctx)
				}
				Out := e.output("out", gguf.F32, c.DV, c.H, c.T)
				scale := float32(1 / math.Sqrt(float64(c.DK)))
				e.g.Do(&gpu.Attention{Q: Q, CacheK: CK, CacheV: CV, Out: Out, HKV: c.HKV, DV: c.DV, VFromK: c.vFromK, Scale: scale})
				e.run(c.pos)
				want, tol := attentionRef(q, c.DK, c.H, c.T, ck, cv, c.HKV, c.DV, c.vFromK, float64(scale), c.pos, typ == gguf.F16)
				near(t, "out", readF(t, Out), want, tol)
			})
		}
	}
}
