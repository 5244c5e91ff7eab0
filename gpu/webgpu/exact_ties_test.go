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
	"github.com/emberllm/ember/engine/quant"
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

// softmaxNearTieScores is a row of n scores (n a multiple of 16) whose
// exps, summed in 16-value chunks as the CPU sums them, add up to within
// about 2^-80 of 1/r, r a float32 tie: the weights' float32 factor, the
// reciprocal of the chunks' float64 sum, then rounds either way by the
// last bits of that sum. The last three chunks each hold one chosen
// score, the rest of theirs far below (exp 0), each taking what is left.
func softmaxNearTieScores(rng *rand.Rand, n int) []float32 {
	const prec = 600
	exact := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	s := make([]float32, n)
	const m = 2 // the largest score
	for i := range s {
		s[i] = m - 5*rng.Float32()
	}
	s[rng.IntN(n-48)] = m
	exps := func(k int) *big.Float { // chunk k's sum as the CPU adds it
		var c [16]float32
		for l := range c {
			c[l] = quant.ExpGGML(s[16*k+l] - m)
		}
		return exact(float64(quant.SumLanes16(&c)))
	}
	sum := exact(0)
	for k := 0; k < n/16-3; k++ {
		sum.Add(sum, exps(k))
	}
	f, _ := new(big.Float).Quo(exact(1), sum).Float32()
	lo := math.Nextafter32(math.Nextafter32(f, 0), 0)
	tie := new(big.Float).SetPrec(prec).Add(exact(float64(lo)), exact(float64(math.Nextafter32(lo, 1))))
	tie.Quo(tie, exact(2))
	rest := new(big.Float).SetPrec(prec).Quo(exact(1), tie)
	rest.Sub(rest, sum)
	for k := n/16 - 3; k < n/16; k++ {
		for l := 0; l < 16; l++ {
			s[16*k+l] = m - 1000
		}
		r, _ := rest.Float64()
		// The largest score whose exp fits in what is left.
		x := float32(m + math.Log(r))
		for quant.ExpGGML(x-m) < float32(r) {
			x = math.Nextafter32(x, m)
		}
		for x > m-1000 && exact(float64(quant.ExpGGML(x-m))).Cmp(rest) > 0 {
			x = math.Nextafter32(x, m-1000)
		}
		s[16*k] = x
		rest.Sub(rest, exps(k))
	}
	return s
}

// Exact attention on rows whose softmax factor sits on a float32 tie but
// for its last bits: the tree sum of the chunks cannot decide which way
// the CPU's serial float64 sum rounds it, and must fall back to that sum.
// Each query head is one-hot, so its scores are the keys' first values,
// exactly. (With the fallback taken out, some heads' outputs differ from
// the CPU's.)
func TestExactSoftmaxNearTies(t *testing.T) {
	cb, wb := exactBackends(t)
	const DK, DV, H, n = 16, 16, 16, 1280
	rng := rand.New(rand.NewPCG(5, 6))
	q := make([]float32, DK*H)
	k := randomFloats(rng, DK*H*n)
	for h := range H {
		q[DK*h] = 1
		for j, v := range softmaxNearTieScores(rng, n) {
			k[DK*(H*j+h)] = v
		}
	}
	v := randomF32(rng, DV*H*n)
	run := func(be gpu.Backend) []byte {
		g := gpu.NewGraph("exact-softmax-ties", 1)
		Q := g.Bind("q", upload(t, be, "q", gguf.F32, gpu.Shape4(DK, H, 1), bytesOfF32(q)))
		CK := g.Bind("ck", cacheOn(t, be, "ck", gguf.F32, DK*H, n, bytesOfF32(k)))
		CV := g.Bind("cv", cacheOn(t, be, "cv", gguf.F32, DV*H, n, v))
		out := g.Bind("out", upload(t, be, "out", gguf.F32, gpu.Shape4(DV, H, 1), nil))
		g.Do(&gpu.Attention{Q: Q, CacheK: CK, CacheV: CV, Out: out, HKV: H, DV: DV, Scale: 1})
		return readAt(t, be, g, out, n-1)
	}
	sameOutputs(t, run(wb), run(cb))
}

// bytesOfF32 is x's little-endian bytes.
func bytesOfF32(x []float32) []byte {
	b := make([]byte, 0, 4*len(x))
	for _, v := range x {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}
