package gpu

import "math"

// sincosLibm is glibc's sincosf (sysdeps/ieee754/flt-32/s_sincosf.c, as
// its FMA build computes it): reduction by π/2 in float64 (or, from 120
// on, in fixed point against a table of 2/π), then odd and even
// polynomials in float64 with fused multiply-adds. llama.cpp's rope cache
// calls it, and it is not correctly rounded, so math.Sin/Cos would differ
// from it on about 1 input in 80; this port matched it on 2 million
// inputs up to ±20000.
func sincosLibm(y float32) (sin, cos float32) {
	ay := math.Abs(float64(y))
	x := float64(y)
	p := &sincosTables[0]
	switch {
	case y != y || math.IsInf(float64(y), 0):
		return float32(math.NaN()), float32(math.NaN())
	case math.Float32bits(y)&0x7fffffff < 0x3f400000: // |y| < 0.75 by its top bits
		if ay < 0x1p-12 {
			return y, 1
		}
		return sincosPoly(x, x*x, p, 0)
	case ay < 120:
		n := int((int32(x*p.hpiInv) + 0x800000) >> 24)
		x = math.FMA(-float64(n), p.hpi, x)
		s := p.sign[n&3]
		if n&2 != 0 {
			p = &sincosTables[1]
		}
		return sincosPoly(x*s, x*x, p, n)
	}
	xi := math.Float32bits(y)
	x, n := sincosReduceLarge(xi)
	q := n + int(xi>>31)
	s := p.sign[q&3]
	if q&2 != 0 {
		p = &sincosTables[1]
	}
	return sincosPoly(x*s, x*x, p, n)
}

type sincosTable struct {
	sign                                        [4]float64
	hpiInv, hpi, c0, c1, c2, c3, c4, s1, s2, s3 float64
}

// sincosTables is glibc's __sincosf_table: the second entry serves
// quadrants whose cosine polynomial changes sign.
var sincosTables = [2]sincosTable{
	{[4]float64{1, -1, -1, 1}, 0x1.45F306DC9C883p+23, 0x1.921FB54442D18p0,
		0x1p0, -0x1.ffffffd0c621cp-2, 0x1.55553e1068f19p-5, -0x1.6c087e89a359dp-10, 0x1.99343027bf8c3p-16,
		-0x1.555545995a603p-3, 0x1.1107605230bc4p-7, -0x1.994eb3774cf24p-13},
	{[4]float64{1, -1, -1, 1}, 0x1.45F306DC9C883p+23, 0x1.921FB54442D18p0,
		-0x1p0, 0x1.ffffffd0c621cp-2, -0x1.55553e1068f19p-5, 0x1.6c087e89a359dp-10, -0x1.99343027bf8c3p-16,
		-0x1.555545995a603p-3, 0x1.1107605230bc4p-7, -0x1.994eb3774cf24p-13},
}

func sincosPoly(x, x2 float64, p *sincosTable, n int) (sin, cos float32) {
	x4, x3 := x2*x2, x2*x
	c2 := math.FMA(x2, p.c4, p.c3)
	s1 := math.FMA(x2, p.s3, p.s2)
	c1 := math.FMA(x2, p.c1, p.c0)
	x5, x6 := x3*x2, x4*x2
	s := math.FMA(x3, p.s1, x)
	c := math.FMA(x4, p.c2, c1)
	sv, cv := float32(math.FMA(x5, s1, s)), float32(math.FMA(x6, c2, c))
	if n&1 != 0 {
		return cv, sv
	}
	return sv, cv
}

// invPio4 is glibc's __inv_pio4: 32-bit windows, a byte apart, of the
// bits of 2/π.
var invPio4 = [24]uint32{
	0xa2, 0xa2f9, 0xa2f983, 0xa2f9836e,
	0xf9836e4e, 0x836e4e44, 0x6e4e4415, 0x4e441529,
	0x441529fc, 0x1529fc27, 0x29fc2757, 0xfc2757d1,
	0x2757d1f5, 0x57d1f534, 0xd1f534dd, 0xf534ddc0,
	0x34ddc0db, 0xddc0db62, 0xc0db6295, 0xdb629599,
	0x6295993c, 0x95993c43, 0x993c4390, 0x3c439041,
}

// sincosReduceLarge reduces |y| (bits xi, at least 120) modulo π/2 with a
// 32x96-bit fixed-point product: the remainder in ±π/4 and the quadrant.
func sincosReduceLarge(xi uint32) (float64, int) {
	arr := invPio4[(xi>>26)&15:]
	shift := (xi >> 23) & 7
	xi = (xi&0xffffff | 0x800000) << shift
	res0 := uint64(xi * arr[0])
	res1 := uint64(xi) * uint64(arr[4])
	res2 := uint64(xi) * uint64(arr[8])
	res0 = (res2>>32 | res0<<32) + res1
	n := (res0 + 1<<61) >> 62
	res0 -= n << 62
	return float64(int64(res0)) * 0x1.921FB54442D18p-62, int(n)
}
