package gputest

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

func testEmbed(t *testing.T, be gpu.Backend) {
	// Rows of a few blocks, and of 1024 values: four a thread of
	// the WebGPU kernel's 256, which loads four at a time.
	for _, wt := range activeWeightTypes {
		for _, D := range []int{weightKs(wt)[0], 1024} {
			t.Run(fmt.Sprintf("%s/D%d", wt, D), func(t *testing.T) {
				testEmbedRows(t, be, wt, D)
			})
		}
	}
}

func testEmbedRows(t *testing.T, be gpu.Backend, wt gguf.TensorType, D int) {
	V, T := 29, 5
	e := newEnv(t, be, 3+uint64(wt), T)
	Tab, tab := e.weight("table", wt, 1, D, V)
	toks := []int{3, 28, 0, 3, 17}
	Tok := e.ints("tokens", toks, T)
	Out := e.output("out", gguf.F32, D, T)
	e.g.Do(&gpu.Embed{Table: Tab, Tokens: Tok, Out: Out})
	e.run(0)
	var want []float64
	for _, id := range toks {
		want = append(want, tab[id*D:(id+1)*D]...)
	}
	// Dequantizing is a few float32 operations per value.
	near(t, "out", readF(t, Out), want, relTol(want, 1e-6, 1e-7))
}

func rmsRef(x, w []float64, eps float64) []float64 {
	var ss float64
	for _, v := range x {
		ss += v * v
	}
	s := 1 / math.Sqrt(ss/float64(len(x))+eps)
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = v * s
		if w != nil {
			y[i] *= w[i]
		}
	}
	return y
}

func testRMSNorm(t *testing.T, be gpu.Backend) {
	for _, withW := range []bool{true, false} {
		t.Run(name("weight=", withW), func(t *testing.T) {
			const D, R = 160, 7
			e := newEnv(t, be, 5, R)
			In, x := e.input("in", e.vals(D*R, 3), D, R)
			var Wt *gpu.Tensor
			var w []float64
			if withW {
				Wt, w = e.input("w", e.vals(D, 1), D)
			}
			Out := e.output("out", gguf.F32, D, R)
			e.g.Do(&gpu.RMSNorm{In: In, Weight: Wt, Out: Out, Eps: 1e-5})
			e.run(0)
			var want []float64
			for r := 0; r < R; r++ {
				want = append(want, rmsRef(x[r*D:(r+1)*D], w, 1e-5)...)
			}
			// A sum of squares, a square root and two products per value.
			near(t, "out", readF(t, Out), want, relTol(want, 2e-6, 1e-7))
		})
	}
	// Rows long enough that each thread of a kernel summing a row with a
	// workgroup holds several of its values (WebGPU loads 8 of them at a
	// time, then the rest one by one), and into a product that rounds its
	// input, which WebGPU's norm writes rounded itself (rmsnorm_round).
	for _, wt := range []gguf.TensorType{gguf.F32, gguf.Q8_0, gguf.Q4_K} {
		for _, T := range []int{1, 3} {
			t.Run(name("long rows into ", wt, "/T", T), func(t *testing.T) {
				// Whole Q4_K super-blocks; the float product's rows leave
				// some threads one value more than others.
				D, N := 2304, 40
				if wt == gguf.F32 {
					D = 2336
				}
				e := newEnv(t, be, 7+uint64(T), T)
				In, x := e.input("in", e.vals(D*T, 3), D, T)
				Wt, w := e.input("w", e.vals(D, 1), D)
				W, wv := e.weight("wp", wt, 1, D, N)
				n := e.g.New("n", gguf.F32, D, T)
				Out := e.output("out", gguf.F32, N, T)
				e.g.Do(&gpu.RMSNorm{In: In, Weight: Wt, Out: n, Eps: 1e-5})
				e.g.Do(&gpu.MatMul{W: W, In: n, Out: Out})
				e.run(0)
				refs := productRefs(wt, wv, D, N, 1, T, func(_, t int) []float64 {
					return rmsRef(x[t*D:(t+1)*D], w, 1e-5)
				})
				// The normalised values may round to the next 8-bit step
				// here and there (their last bits differ from float64's), so
				// each output is held to the analytic bound of the 8-bit
				// rounding; a wrong row scale moves every output past it.
				got := readF(t, Out)
				for i, r := range refs {
					if math.Abs(got[i]-r.exact) > r.quantBound {
						t.Errorf("out[%d] = %.7g, want %.7g within %.3g", i, got[i], r.exact, r.quantBound)
					}
				}
			})
		}
	}
	t.Run("per-head view", func(t *testing.T) {
		// Normalise the first 32 of every 48 values: per-head norms on a
		// strided slice of a fused projection.
		const hd, H, T, stride = 32, 3, 2, 48
		e := newEnv(t, be, 6, T)
		base, x := e.input("in", e.vals(stride*H*T, 2), stride*H, T)
		v := e.g.View("heads", base, 0, gpu.Shape4(hd, H, T), &[4]int{4, 4 * stride, 4 * stride * H, 4 * stride * H * T})
		Wt, w := e.input("w", e.vals(hd, 1), hd)
		Out := e.output("out", gguf.F32, hd, H, T)
		e.g.Do(&gpu.RMSNorm{In: v, Weight: Wt, Out: Out, Eps: 1e-6})
		e.run(0)
		var want []float64
		for r := 0; r < H*T; r++ {
			want = append(want, rmsRef(x[r*stride:r*stride+hd], w, 1e-6)...)
		}
		near(t, "out", readF(t, Out), want, relTol(want, 2e-6, 1e-7))
	})
}

func testElementwise(t *testing.T, be gpu.Backend) {
	const D, T = 67, 5
	e := newEnv(t, be, 9, T)
	A, a := e.input("a", e.vals(D*T, 2), D, T)
	B, b := e.input("b", e.vals(D*T, 2), D, T)
	// A strided view: every other element of a {2D, T} tensor.
	Wide, wide := e.input("wide", e.vals(2*D*T, 2), 2*D, T)
	Sv := e.g.View("sv", Wide, 4, gpu.Shape4(D, T), &[4]int{8, 8 * D, 8 * D * T, 8 * D * T})
	sv := make([]float64, D*T)
	for i := range sv {
		sv[i] = wide[i/D*2*D+2*(i%D)+1]
	}
	Col, col := e.input("col", e.vals(D, 1), D, 1)
	Row, row := e.input("row", e.vals(T, 1), 1, T)
	One, one := e.input("one", e.vals(1, 1), 1)
	outs := map[string]*gpu.Tensor{}
	want := map[string][]float64{}
	add := func(name string, op func(out *gpu.Tensor) gpu.Op, f func(i int) float64) {
		outs[name] = e.output(name, gguf.F32, D, T)
		e.g.Do(op(outs[name]))
		w := make([]float64, D*T)
		for i := range w {
			w[i] = f(i)
		}
		want[name] = w
	}
	add("add", func(o *gpu.Tensor) gpu.Op { return &gpu.Add{A: A, B: B, Out: o} }, func(i int) float64 { return a[i] + b[i] })
	add("add-strided", func(o *gpu.Tensor) gpu.Op { return &gpu.Add{A: Sv, B: B, Out: o} }, func(i int) float64 { return sv[i] + b[i] })
	add("mul", func(o *gpu.Tensor) gpu.Op { return &gpu.Mul{A: A, B: B, Out: o} }, func(i int) float64 { return a[i] * b[i] })
	add("mul-col", func(o *gpu.Tensor) gpu.Op { return &gpu.Mul{A: A, B: Col, Out: o} }, func(i int) float64 { return a[i] * col[i%D] })
	add("mul-row", func(o *gpu.Tensor) gpu.Op { return &gpu.Mul{A: Sv, B: Row, Out: o} }, func(i int) float64 { return sv[i] * row[i/D] })
	add("mul-one", func(o *gpu.Tensor) gpu.Op { return &gpu.Mul{A: A, B: One, Out: o} }, func(i int) float64 { return a[i] * one[0] })
	add("scale", func(o *gpu.Tensor) gpu.Op { return &gpu.Scale{In: Sv, Out: o, S: -0.37} }, func(i int) float64 { return sv[i] * float64(float32(-0.37)) })
	add("swiglu", func(o *gpu.Tensor) gpu.Op { return &gpu.SwiGLU{Gate: A, Up: Sv, Out: o} }, func(i int) float64 {
		return a[i] / (1 + math.Exp(-a[i])) * sv[i]
	})
	e.run(0)
	for n, o := range outs {
		// One or two float32 roundings; silu's exponential a few ulp more.
		near(t, n, readF(t, o), want[n], relTol(want[n], 2e-6, 1e-7))
	}
}

func testCopy(t *testing.T, be gpu.Backend) {
	const D, T = 40, 3
	e := newEnv(t, be, 13, T)
	// Values from 1e-6 to 3e4 in magnitude exercise subnormal and large
	// halves.
	x := e.vals(D*T, 1)
	for i := range x {
		x[i] *= math.Pow(10, float64(i%11)-6)
	}
	In, xi := e.input("in", x, D, T)
	H := e.output("h", gguf.F16, D, T)
	e.g.Do(&gpu.Copy{In: In, Out: H})
	Back := e.output("back", gguf.F32, D, T)
	e.g.Do(&gpu.Copy{In: H, Out: Back})
	// Transposing view -> contiguous: element (t, d) of In as {T, D}.
	tv := e.g.View("tv", In, 0, gpu.Shape4(T, D), &[4]int{4 * D, 4, 4 * D * T, 4 * D * T})
	Tr := e.output("tr", gguf.F32, T, D)
	e.g.Do(&gpu.Copy{In: tv, Out: Tr})
	// Reshaping copy of the same element count.
	Flat := e.output("flat", gguf.F32, D*T)
	e.g.Do(&gpu.Copy{In: tv, Out: Flat})
	// Into a strided view: odd rows of a {D, 2T} buffer.
	Dst := e.output("dst", gguf.F32, D, 2*T)
	dv := e.g.View("dv", Dst, 4*D, gpu.Shape4(D, T), &[4]int{4, 8 * D, 8 * D * T, 8 * D * T})
	e.g.Do(&gpu.Copy{In: In, Out: dv})
	e.run(0)

	hb := readBytes(t, H)
	for i, v := range xi {
		got := decodeHalf(binary.LittleEndian.Uint16(hb[2*i:]))
		if want := half64(v); got != want {
			t.Errorf("f16 copy of %.9g = %.9g, want %.9g (nearest, ties to even)", v, got, want)
		}
	}
	back := readF(t, Back)
	for i, v := range xi {
		if want := half64(v); back[i] != want {
			t.Errorf("f16 -> f32 of element %d = %g, want %g", i, back[i], want)
		}
	}
	tr := make([]float64, D*T)
	for d := 0; d < D; d++ {
		for tt := 0; tt < T; tt++ {
			tr[tt+T*d] = xi[d+D*tt]
		}
	}
	near(t, "transposed", readF(t, Tr), tr, []float64{0})
	near(t, "flat", readF(t, Flat), tr, []float64{0})
	dst := readF(t, Dst)
	for tt := 0; tt < 2*T; tt++ {
		for d := 0; d < D; d++ {
			want := 0.0
			if tt%2 == 1 {
				want = xi[d+D*(tt/2)]
			}
			if dst[d+D*tt] != want {
				t.Fatalf("strided copy: dst[%d, %d] = %g, want %g", d, tt, dst[d+D*tt], want)
			}
		}
	}
}

// testWeightedSum also covers the residual add after the sum, which a
// backend may fuse into it; the sum must stay readable.
func testWeightedSum(t *testing.T, be gpu.Backend) {
	for _, residual := range []bool{false, true} {
		t.Run(name("residual=", residual), func(t *testing.T) {
			const N, S, T = 45, 4, 3
			e := newEnv(t, be, 17, T)
			In, x := e.input("in", e.vals(N*S*T, 1), N, S, T)
			W, w := e.input("w", e.vals(S*T, 1), S, T)
			Out := e.output("out", gguf.F32, N, T)
			e.g.Do(&gpu.WeightedSum{In: In, Weights: W, Out: Out})
			var R, Sum *gpu.Tensor
			var r []float64
			if residual {
				R, r = e.input("r", e.vals(N*T, 1), N, T)
				Sum = e.output("sum", gguf.F32, N, T)
				e.g.Do(&gpu.Add{A: R, B: Out, Out: Sum})
			}
			e.run(0)
			want := make([]float64, N*T)
			tol := make([]float64, N*T)
			for tt := 0; tt < T; tt++ {
				for n := 0; n < N; n++ {
					for s := 0; s < S; s++ {
						p := x[n+N*(s+S*tt)] * w[s+S*tt]
						want[n+N*tt] += p
						tol[n+N*tt] += 4e-7 * math.Abs(p) // S roundings of the sum
					}
				}
			}
			got := readF(t, Out)
			near(t, "out", got, want, tol)
			if residual {
				// Exactly the float32 sum of the two inputs as they are.
				sum := readF(t, Sum)
				for i := range sum {
					if w := float64(float32(r[i]) + float32(got[i])); sum[i] != w {
						t.Fatalf("sum %d: %g, want %g + %g = %g", i, sum[i], r[i], got[i], w)
					}
				}
			}
		})
	}
}
