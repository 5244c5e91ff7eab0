package quant

// Q3_K: 256 values in 16 groups of 16, x = d*(sc-32)*(q-4) with q in 0..7
// and 6-bit sc per group. Layout (110 bytes):
//
//	hmask[32]   bit k of byte l: the high bit of value 32*k+l
//	qs[64]      low 2 bits, laid out as in Q2_K
//	scales[12]  group j: low nibble in byte j (j<8) or the high nibble of
//	            byte j-8, top 2 bits in byte 8+j%4 at bit 2*(j/4)
//	d           f16
const q3KBytes = 110

// q3KScale unpacks group j's 6-bit scale, minus its bias of 32.
func q3KScale(s []byte, j int) int8 {
	var lo uint8
	if j < 8 {
		lo = s[j] & 15
	} else {
		lo = s[j-8] >> 4
	}
	hi := s[8+j%4] >> (2 * (j / 4)) & 3
	return int8(lo|hi<<4) - 32
}

func encodeQ3_K(src []float32, dst []byte) {
	var (
		L      [256]int8
		scales [16]float32
	)
	for b := 0; b < len(src)/256; b++ {
		x, y := src[256*b:256*b+256], dst[q3KBytes*b:q3KBytes*b+q3KBytes]
		var maxScale, amax float32
		for j := 0; j < 16; j++ {
			scales[j] = makeQ3Quants(4, x[16*j:16*j+16], L[16*j:16*j+16])
			if a := abs32(scales[j]); a > amax {
				amax, maxScale = a, scales[j]
			}
		}
		sc := y[96:108]
		clear(sc)
		if maxScale != 0 {
			iscale := -32 / maxScale
			for j := 0; j < 16; j++ {
				l := int8(nearestInt(iscale * scales[j]))
				l = max(-32, min(31, l)) + 32
				if j < 8 {
					sc[j] = uint8(l) & 15
				} else {
					sc[j-8] |= (uint8(l) & 15) << 4
				}
				sc[8+j%4] |= uint8(l>>4) << (2 * (j / 4))
			}
			putHalf(y, 108, 1/iscale)
		} else {
			putHalf(y, 108, 0)
		}
		dAll := halfAt(y, 108)
		for j := 0; j < 16; j++ {
			d := dAll * float32(q3KScale(sc, j))
			if d == 0 {
				continue
			}
			for i, v := range x[16*j : 16*j+16] {
				L[16*j+i] = int8(clampInt(nearestInt(v/d), -4, 3) + 4)
			}
		}
		hmask := y[:32]
		clear(hmask)
		var U [256]uint8
		for j, l := range L {
			u := uint8(l)
			if u > 3 {
				hmask[j%32] |= 1 << (j / 32)
				u -= 4
			}
			U[j] = u
		}
		packCrumbs(&U, y[32:96])
	}
}

func decodeQ3_K(src []byte, dst []float32) {
	for b := 0; b < len(dst)/256; b++ {
		x, y := src[q3KBytes*b:q3KBytes*b+q3KBytes], dst[256*b:256*b+256]
		d := halfAt(x, 108)
		hm, sc := x[:32], x[96:108]
		for g := 0; g < 16; g++ {
			h, k, off := g/8, (g/2)%4, 16*(g&1)
			dl := d * float32(q3KScale(sc, g))
			q := x[32+32*h+off : 32+32*h+off+16]
			bit := uint8(1) << (4*h + k)
			out := y[16*g : 16*g+16]
			for l := range out {
				v := int32(q[l] >> (2 * k) & 3)
				if hm[off+l]&bit == 0 {
					v -= 4
				}
				out[l] = dl * float32(v)
			}
		}
	}
}
