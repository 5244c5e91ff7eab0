//go:build cgo && !js

package webgpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/wgsl"
)

// divisionKernel writes, for pair i of its input, div_exact(a, b) to
// output 2i and div_fused(|a|, |b|) to 2i+1.
var divisionKernel = floatsKernel(`let a = X[i & ~1u];
    let b = X[i | 1u];
    if ((i & 1u) == 0u) { Y[i] = div_exact(a, b); } else { Y[i] = div_fused(abs(a), abs(b)); }`)

// TestDivision holds exact_math's divisions to the CPU's float32 division
// (IEEE's, rounded once) bit for bit: div_exact always, div_fused (its
// correction of the device's a / b by residuals) wherever it answers,
// which must be every pair within its bounds. The activation roundings of
// both modes divide with them, so a quotient an ulp off would move every
// value of a block. The device's fma() is taken where the probe finds it
// rounded once (NVIDIA), fma_exact's emulation elsewhere (lavapipe), so
// this runs the path the kernels take.
func TestDivision(t *testing.T) {
	be, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	b := be.(*Backend)
	src, err := wgsl.Source("exact_math", "", false)
	if err != nil {
		t.Fatal(err)
	}
	src += divisionKernel
	if b.fusedFMA() {
		src = wgsl.FusedFMA(src)
	}
	r := rand.New(rand.NewPCG(3, 5))
	float := func(e int) float32 {
		return float32(math.Ldexp(1+r.Float64(), e)) * float32(1-2*r.IntN(2))
	}
	var xs []float32
	// Within div_fused's bounds: dividends and quotients within 2^±60.
	for range 3000 {
		ea, eq := r.IntN(121)-60, r.IntN(121)-60
		xs = append(xs, float(ea), float(ea-eq))
	}
	// The roundings' own divisions: largest magnitudes by 127, 127 by
	// them, -127 by a signed extreme, 1 by that scale.
	for range 500 {
		m := float(r.IntN(30) - 15)
		xs = append(xs, m, 127, 127, m, -127, m, 1, -127/m)
	}
	// Quotients next to powers of two (mantissas a few ulps apart), where
	// the walk crosses an exponent.
	for range 500 {
		a := float(r.IntN(20) - 10)
		bb := math.Float32frombits(math.Float32bits(a) + uint32(r.IntN(7)) - 3)
		xs = append(xs, a, bb*float32(math.Ldexp(1, r.IntN(20)-10)))
	}
	ys, err := b.runFloats("division", src, xs, len(xs))
	if err != nil {
		t.Fatal(err)
	}
	bad, unanswered := 0, 0
	for i := 0; i < len(xs); i += 2 {
		a, d := xs[i], xs[i+1]
		want := a / d
		if math.Float32bits(ys[i]) != math.Float32bits(want) {
			bad++
			if bad <= 5 {
				t.Errorf("div_exact(%g, %g) = %g (%#x), want %g (%#x)", a, d, ys[i], math.Float32bits(ys[i]), want, math.Float32bits(want))
			}
		}
		fused, wantAbs := ys[i+1], float32(math.Abs(float64(want)))
		switch {
		case fused == 0:
			unanswered++
			if unanswered <= 5 {
				t.Errorf("div_fused(%g, %g) gave no answer within its bounds", math.Abs(float64(a)), math.Abs(float64(d)))
			}
		case math.Float32bits(fused) != math.Float32bits(wantAbs):
			bad++
			if bad <= 5 {
				t.Errorf("div_fused(%g, %g) = %g (%#x), want %g (%#x)", math.Abs(float64(a)), math.Abs(float64(d)), fused, math.Float32bits(fused), wantAbs, math.Float32bits(wantAbs))
			}
		}
	}
	t.Logf("%s, fused fma %v: %d quotients, %d wrong, %d unanswered", b.info.Device, b.fusedFMA(), len(xs)/2, bad, unanswered)
}
