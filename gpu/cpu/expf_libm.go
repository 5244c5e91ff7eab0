package cpu

import "math"

// expLibm is glibc's expf (sysdeps/ieee754/flt-32/e_expf.c): x·32/ln2
// split into an integer k and a remainder r, 2^(k/32) from a table, a
// cubic in r, all in float64, rounded once to float32. llama.cpp's scalar
// code calls it (the sigmoid op, softmax past the last 16-value chunk),
// and it is not correctly rounded, so math.Exp would differ from it on
// about 1 input in 2000; this port matched it on 3 million inputs.
func expLibm(x float32) float32 {
	const (
		invLn2N = 0x1.71547652b82fep+0 * 32
		shift   = 0x1.8p+52
		c0      = 0x1.c6af84b912394p-5 / 32 / 32 / 32
		c1      = 0x1.ebfce50fac4f3p-3 / 32 / 32
		c2      = 0x1.62e42ff0c52d6p-1 / 32
	)
	switch {
	case x != x:
		return x
	case x > 0x1.62e42ep6:
		return float32(math.Inf(1))
	case x < -0x1.9fe368p6:
		return 0
	}
	z := float64(invLn2N * float64(x)) // rounded, as glibc (built without contraction) has it: arm64 Go would fuse
	kd := z + shift
	ki := math.Float64bits(kd)
	kd -= shift
	r := z - kd
	s := math.Float64frombits(exp2fTable[ki%32] + ki<<47)
	p := math.FMA(c0, r, c1)
	y := math.FMA(c2, r, 1)
	y = math.FMA(p, r*r, y)
	return float32(y * s)
}

// exp2fTable holds glibc's __exp2f_data.tab: the bits of 2^(i/32), less
// i<<47 so that adding k<<47 scales by 2^(k/32) in one integer add.
var exp2fTable = [32]uint64{
	0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
	0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
	0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
	0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
	0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
	0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
	0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
	0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
}
