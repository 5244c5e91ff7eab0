//go:build cgo && !js

package webgpu_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// nearTieRow is n values whose float32 squares sum, exactly, to within
// about 2^-70 of n times a float32 tie (the midpoint of two adjacent
// float32 values): the mean of squares then rounds to one side or the
// other by the last bits of the float64 sum, so only the CPU's own order
// gives the CPU's factor. All but three values are random; those three
// are chosen greedily, each square taking what is left.
func nearTieRow(rng *rand.Rand, n int) []float32 {
	x := randomFloats(rng, n)
	// Magnitudes far apart make each order's float64 sum round often.
	for i := range x {
		x[i] = float32(math.Ldexp(float64(x[i]), rng.IntN(13)-6))
	}
	const prec = 600
	exact := func(v float32) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(float64(v)) }
	sum := new(big.Float).SetPrec(prec)
	for _, v := range x[:n-3] {
		sum.Add(sum, exact(v*v))
	}
	mean, _ := new(big.Float).Quo(sum, exact(float32(n))).Float32()
	// The tie two steps above the mean leaves a remainder of a few ulps
	// of the sum for the three chosen squares.
	lo := math.Nextafter32(math.Nextafter32(mean, float32(math.Inf(1))), float32(math.Inf(1)))
	hi := math.Nextafter32(lo, float32(math.Inf(1)))
	tie := new(big.Float).SetPrec(prec).Add(exact(lo), exact(hi))
	tie.Quo(tie, exact(2))
	rest := new(big.Float).SetPrec(prec).Mul(tie, exact(float32(n)))
	rest.Sub(rest, sum)
	for k := n - 3; k < n; k++ {
		r, _ := rest.Float64()
		v := float32(math.Sqrt(r))
		for v > 0 && exact(v*v).Cmp(rest) > 0 {
			v = math.Nextafter32(v, 0)
		}
		rest.Sub(rest, exact(v*v))
		x[k] = v
	}
	return x
}

// Rows whose mean of squares lies on a float32 tie but for its last bits:
// the exact RMSNorm's tree sum cannot decide which float32 the CPU's
// serial sums round to, and must fall back to summing as the CPU does.
// (With the fallback taken out, some rows of each length come out one
// float32 step from the CPU's.)
func TestExactRMSNormNearTies(t *testing.T) {
	cb, wb := exactBackends(t)
	for _, n := range []int{2048, 1001, 300} {
		t.Run(fmt.Sprintf("n%d", n), func(t *testing.T) {
			const rows = 32
			rng := rand.New(rand.NewPCG(uint64(n), 17))
			raw := make([]byte, 0, 4*n*rows)
			for range rows {
				for _, v := range nearTieRow(rng, n) {
					raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
				}
			}
			shape := gpu.Shape4(n, rows)
			run := func(be gpu.Backend) []byte {
				g := gpu.NewGraph("rmsnorm", 1)
				in := g.Bind("x", upload(t, be, "x", gguf.F32, shape, raw))
				out := g.Bind("y", upload(t, be, "y", gguf.F32, shape, nil))
				g.Do(&gpu.RMSNorm{In: in, Out: out, Eps: 0})
				return compileRead(t, be, g, out)
			}
			sameOutputs(t, run(wb), run(cb))
		})
	}
}
