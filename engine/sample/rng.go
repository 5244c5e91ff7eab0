package sample

import "math/rand/v2"

// rng is the sampler's private random source. PCG (DXSM output) is a fixed,
// documented algorithm in pure integer arithmetic, so a seed yields the same
// stream on every GOARCH, wasm included; the float conversion is written out
// here rather than taken from rand.Rand so that it cannot drift either.
type rng struct {
	pcg rand.PCG
}

// seedStream is the second half of PCG's 128-bit seed. Any fixed constant
// works; an odd, bit-mixed one keeps seed 0 from starting in a dull state.
const seedStream = 0x9e3779b97f4a7c15

func (r *rng) seed(s uint64) { r.pcg.Seed(s, seedStream) }

// uniform returns a float64 in [0, 1) built from the top 53 bits of a draw,
// so every value is exactly representable and 1 is never returned.
func (r *rng) uniform() float64 {
	return float64(r.pcg.Uint64()>>11) * 0x1p-53
}
