//go:build cgo && !js

package webgpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/wgsl"
)

// f64Terms is how many float32 values each thread of the test sums.
const f64Terms = 8

// f64Kernel sums the terms of thread i in float64 (f64_exact.wgsl) and
// writes float32 of the sum and of its reciprocal.
const f64Kernel = `
@group(0) @binding(0) var<storage, read_write> X: array<u32>;
@group(0) @binding(1) var<storage, read_write> Y: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (2u * i >= arrayLength(&Y)) { return; }
    var s = f64_from(bitcast<f32>(X[8u * i]));
    for (var k = 1u; k < 8u; k++) { s = f64_add(s, f64_from(bitcast<f32>(X[8u * i + k]))); }
    Y[2u * i] = bitcast<u32>(f64_f32(s));
    Y[2u * i + 1u] = bitcast<u32>(f64_recip_f32(s));
}
`

// TestF64Exact checks the float64 emulation against Go's float64 on sums
// that round (terms up to 60 binades apart), tie, cancel, and end in the
// subnormal or overflowing float32 range.
func TestF64Exact(t *testing.T) {
	be, err := Open(Options{Exact: true})
	if err != nil {
		t.Skip(err)
	}
	defer be.Close()
	b := be.(*Backend)
	const n = 4096
	rng := rand.New(rand.NewPCG(1, 2))
	xs := make([]float32, n*f64Terms)
	for i := 0; i < n; i++ {
		base := rng.IntN(247) - 120
		for k := 0; k < f64Terms; k++ {
			e := base - rng.IntN(60)
			if i%4 == 0 {
				e = base - rng.IntN(2) // near ties and cancellations
			}
			m := 1 + rng.Float64()
			if i%8 == 2 { // ties of the double and then of the float32 rounding
				e = base - []int{0, 24, 52, 53, 54, 77}[rng.IntN(6)]
				m = []float64{1, 1 + 0x1p-23, 1.5}[rng.IntN(3)]
			}
			v := float32(math.Ldexp(m, e))
			if rng.IntN(2) == 0 {
				v = -v
			}
			if i%16 == 1 && k > 0 {
				v = -xs[i*f64Terms+k-1] // exact cancellation to zero
			}
			xs[i*f64Terms+k] = v
		}
	}
	got := runF64Kernel(t, b, xs, n)
	bad := 0
	for i := 0; i < n; i++ {
		var s float64
		for _, v := range xs[i*f64Terms : (i+1)*f64Terms] {
			s += float64(v)
		}
		for j, want := range []float32{float32(s), float32(1 / s)} {
			g := got[2*i+j]
			if math.Float32bits(g) != math.Float32bits(want) && bad < 5 {
				t.Errorf("thread %d result %d: %g (%08x), Go's %g (%08x); terms %v", i, j, g, math.Float32bits(g), want, math.Float32bits(want), xs[i*f64Terms:(i+1)*f64Terms])
			}
			if math.Float32bits(g) != math.Float32bits(want) {
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d results differ from Go's", bad, 2*n)
	}
}

// runF64Kernel runs f64Kernel on xs and returns its 2n results.
func runF64Kernel(t *testing.T, b *Backend, xs []float32, n int) []float32 {
	t.Helper()
	src, err := wgsl.Source("f64_exact", "", false)
	if err != nil {
		t.Fatal(err)
	}
	ys, err := b.runFloats("f64_exact_test", src+f64Kernel, xs, 2*n)
	if err != nil {
		t.Fatal(err)
	}
	return ys
}
