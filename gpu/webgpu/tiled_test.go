//go:build cgo && !js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// Prefill products take the tiled kernel, with the epilogues the matvec
// fuses (the residual add; the SwiGLU after the gate and up products) and
// with weights split across bindings, and give the CPU backend's results
// up to the order of the f32 sums. Sizes are odd: rows and tokens end
// inside a tile, K spans several blocks (and ends inside a slice for
// float weights). The kernel takes no subgroup operations: one run
// covers both builds. Native only: in the browser the op suite's products
// already take the tiled kernel, and the browser test's time is short.
func TestTiledProducts(t *testing.T) {
	const N, T = 131, 70
	cb := cpu.New(1)
	defer cb.Close()
	for _, capped := range []bool{false, true} {
		var o webgpu.Options
		if capped {
			// Row ranges of a few dozen rows, not a multiple of a tile.
			o.MaxBinding = 16 << 10
		}
		wb, err := webgpu.Open(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, wt := range weightTypes {
			K := map[int]int{1: 291, 32: 288, 256: 768}[wt.BlockSize()]
			t.Run(fmt.Sprintf("capped=%v/%s", capped, wt), func(t *testing.T) {
				ffn := newFFN(t, wt, K, N, T)
				want, _ := ffn.run(t, cb)
				got, names := ffn.run(t, wb)
				for _, n := range names {
					if n == "matmul" || n == "matmul_gate_up" {
						t.Errorf("a %d-token product took the matvec (%s)", T, n)
					}
				}
				tol := tiledTolerance(wt)
				for i, what := range ffnOutputs {
					near(t, what, got[i], want[i], tol)
				}
			})
		}
		wb.Close()
	}
}

// ffn is a feed-forward block's products on random data: the gate and
// up products G·x and U·x, their SwiGLU, and a product R·x with a
// residual added.
type ffn struct {
	wt         gguf.TensorType
	K, N, T    int
	g, u, r    []byte
	x, residue []byte
}

var ffnOutputs = []string{"gate", "up", "silu(gate)·up", "R·x", "resid+R·x"}

func newFFN(t *testing.T, wt gguf.TensorType, K, N, T int) *ffn {
	rng := rand.New(rand.NewPCG(uint64(wt), uint64(K)))
	weight := func() []byte { return randomWeightBytes(t, rng, wt, gpu.Shape4(K, N)) }
	return &ffn{wt: wt, K: K, N: N, T: T, g: weight(), u: weight(), r: weight(), x: randomFloatBytes(rng, K*T), residue: randomFloatBytes(rng, N*T)}
}

// run computes the block on be and returns its outputs and the names of
// the kernels it took (none on the CPU backend).
func (f *ffn) run(t *testing.T, be gpu.Backend) ([][]float32, []string) {
	t.Helper()
	K, N, T := f.K, f.N, f.T
	must := func(b gpu.Buffer, err error) gpu.Buffer {
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	g := gpu.NewGraph("ffn", T)
	weight := func(name string, data []byte) *gpu.Tensor {
		return g.Bind(name, must(be.Weight(name, f.wt, gpu.Shape4(K, N), data)))
	}
	outs := make([]gpu.Buffer, len(ffnOutputs))
	o := make([]*gpu.Tensor, len(outs))
	for i, name := range ffnOutputs {
		outs[i] = must(be.Alloc(name, gguf.F32, gpu.Shape4(N, T)))
		o[i] = g.Bind(name, outs[i])
	}
	xb, rb := must(be.Alloc("x", gguf.F32, gpu.Shape4(K, T))), must(be.Alloc("residue", gguf.F32, gpu.Shape4(N, T)))
	for _, w := range []struct {
		b    gpu.Buffer
		data []byte
	}{{xb, f.x}, {rb, f.residue}} {
		if err := w.b.Write(0, w.data); err != nil {
			t.Fatal(err)
		}
	}
	x := g.Bind("x", xb)
	g.Do(&gpu.MatMul{W: weight("g", f.g), In: x, Out: o[0]})
	g.Do(&gpu.MatMul{W: weight("u", f.u), In: x, Out: o[1]})
	g.Do(&gpu.SwiGLU{Gate: o[0], Up: o[1], Out: o[2]})
	g.Do(&gpu.MatMul{W: weight("r", f.r), In: x, Out: o[3]})
	g.Do(&gpu.Add{A: g.Bind("residue", rb), B: o[3], Out: o[4]})
	names := runKernels(t, be, g)
	res := make([][]float32, len(outs))
	for i, b := range outs {
		res[i] = readFloats(t, b, N*T)
	}
	return res, names
}

// runKernels compiles and runs g on be, and returns the names of the
// kernels it took (none on the CPU backend).
func runKernels(t *testing.T, be gpu.Backend, g *gpu.Graph) []string {
	t.Helper()
	p, err := be.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(gpu.Params{}); err != nil {
		t.Fatal(err)
	}
	var names []string
	if _, ok := be.(*webgpu.Backend); ok {
		webgpu.KeepKernels(p, func(name string, _ int) bool {
			names = append(names, name)
			return false
		})
	}
	return names
}

// readFloats is the first n f32 values of b.
func readFloats(t *testing.T, b gpu.Buffer, n int) []float32 {
	t.Helper()
	raw := make([]byte, 4*n)
	if err := b.Read(0, raw); err != nil {
		t.Fatal(err)
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out
}

// tiledTolerance is the bound on a tiled product of weights wt against
// the CPU backend, relative to the largest output: 1e-4, the f32 sums'
// reordering; 1e-3 for Q4_1 and Q5_1, whose minimums the CPU takes
// against the activation block sums of Q8_1, stored in f16, where the
// WebGPU tile takes them as d·Σq in f32 (tile_x_q8).
func tiledTolerance(wt gguf.TensorType) float64 {
	if wt == gguf.Q4_1 || wt == gguf.Q5_1 {
		return 1e-3
	}
	return 1e-4
}

// near fails unless got is want within tol of the largest of want: f32
// sums of another order.
func near(t *testing.T, what string, got, want []float32, tol float64) {
	t.Helper()
	var top float64
	for _, v := range want {
		top = math.Max(top, math.Abs(float64(v)))
	}
	for i := range want {
		if d := math.Abs(float64(got[i] - want[i])); d > tol*top || math.IsNaN(float64(got[i])) {
			t.Fatalf("%s[%d] = %g, the CPU backend's %g (largest %g)", what, i, got[i], want[i], top)
		}
	}
}

// A prefill's products by expert id take the grouped tiles
// (matmul_id_tiled) and give the CPU backend's results up to the order of
// the f32 sums, with experts taller than a tile (N = 131 rows: two whole
// tiles and one that ends inside its rows; the op suite's experts are
// shorter than one), some experts unused and some chosen by many tokens.
func TestTiledExpertProducts(t *testing.T) {
	const N, T, S, E = 131, 40, 4, 6
	cb := cpu.New(1)
	defer cb.Close()
	wb, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	for _, wt := range []gguf.TensorType{gguf.Q4_0, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1, gguf.Q8_0, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K, gguf.F32} {
		K := map[int]int{1: 291, 32: 288, 256: 768}[wt.BlockSize()]
		tol := tiledTolerance(wt)
		t.Run(wt.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(wt), 7))
			w := randomWeightBytes(t, rng, wt, gpu.Shape4(K, N, E))
			x := randomFloatBytes(rng, K*S*T)
			ids := make([]byte, 4*S*T)
			for tt := range T {
				// Distinct experts a token: 0 and 1 for three tokens in
				// four, a random four of 0..4 for the fourth; 5 never.
				chosen := rng.Perm(E - 1)[:S]
				if tt%4 != 0 {
					chosen = []int{0, 1, 2 + tt%3, 2 + (tt+1)%3}
				}
				for s, ex := range chosen {
					binary.LittleEndian.PutUint32(ids[4*(tt*S+s):], uint32(ex))
				}
			}
			want, _ := expertProducts(t, cb, wt, K, N, S, T, E, w, x, ids)
			got, names := expertProducts(t, wb, wt, K, N, S, T, E, w, x, ids)
			if !slices.Contains(names, "matmul_id_tiled") {
				t.Fatalf("a %d-token product by expert took %v, not matmul_id_tiled", T, names)
			}
			near(t, "out", got, want, tol)
		})
	}
}

// expertProducts runs one product by expert id on be and returns its
// output and the kernels it took.
func expertProducts(t *testing.T, be gpu.Backend, wt gguf.TensorType, K, N, S, T, E int, w, x, ids []byte) ([]float32, []string) {
	t.Helper()
	must := func(b gpu.Buffer, err error) gpu.Buffer {
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	g := gpu.NewGraph("experts", T)
	W := g.Bind("w", must(be.Weight("w", wt, gpu.Shape4(K, N, E), w)))
	xb := must(be.Alloc("x", gguf.F32, gpu.Shape4(K, S, T)))
	ib := must(be.Alloc("ids", gguf.I32, gpu.Shape4(S, T)))
	ob := must(be.Alloc("out", gguf.F32, gpu.Shape4(N, S, T)))
	if err := xb.Write(0, x); err != nil {
		t.Fatal(err)
	}
	if err := ib.Write(0, ids); err != nil {
		t.Fatal(err)
	}
	g.Do(&gpu.MatMulID{W: W, In: g.Bind("x", xb), IDs: g.Bind("ids", ib), Out: g.Bind("out", ob)})
	names := runKernels(t, be, g)
	return readFloats(t, ob, N*S*T), names
}
