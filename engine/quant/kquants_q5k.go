package quant

// Q5_K: Q4_K with a fifth bit, q in 0..31. Layout (176 bytes):
//
//	d, dmin     f16
//	scales[12]  as Q4_K (kScaleMin)
//	qh[32]      bit 2p of byte l: high bit of value 64*p+l; bit 2p+1: of 64*p+32+l
//	qs[128]     low nibbles, laid out as Q4_K's
const q5KBytes = 176

func encodeQ5_K(src []float32, dst []byte) {
	var (
		L            [256]uint8
		scales, mins [8]float32
	)
	for b := 0; b < len(src)/256; b++ {
		x, y := src[256*b:256*b+256], dst[q5KBytes*b:q5KBytes*b+q5KBytes]
		maxScale, maxMin := kFitGroups(x, 31, -0.5, 15, &L, &scales, &mins)
		kPackScales(y, &scales, &mins, maxScale, maxMin)
		kRequantize(x, y, 31, &L)
		qh, ql := y[16:48], y[48:176]
		clear(qh)
		for p := 0; p < 4; p++ {
			for l := 0; l < 32; l++ {
				l1, l2 := L[64*p+l], L[64*p+32+l]
				if l1 > 15 {
					l1 -= 16
					qh[l] |= 1 << (2 * p)
				}
				if l2 > 15 {
					l2 -= 16
					qh[l] |= 2 << (2 * p)
				}
				ql[32*p+l] = l1 | l2<<4
			}
		}
	}
}

func decodeQ5_K(src []byte, dst []float32) {
	for b := 0; b < len(dst)/256; b++ {
		x, y := src[q5KBytes*b:q5KBytes*b+q5KBytes], dst[256*b:256*b+256]
		d, mn := halfAt(x, 0), halfAt(x, 2)
		qh := x[16:48]
		for p := 0; p < 4; p++ {
			sc1, m1 := kScaleMin(x[4:16], 2*p)
			sc2, m2 := kScaleMin(x[4:16], 2*p+1)
			d1, mn1 := d*float32(sc1), float32(mn*float32(m1))
			d2, mn2 := d*float32(sc2), float32(mn*float32(m2))
			q := x[48+32*p : 48+32*p+32]
			lo, hi := y[64*p:64*p+32], y[64*p+32:64*p+64]
			for l, v := range q {
				h := qh[l] >> (2 * p)
				lo[l] = float32(d1*float32(v&15|(h&1)<<4)) - mn1
				hi[l] = float32(d2*float32(v>>4|(h&2)<<3)) - mn2
			}
		}
	}
}
