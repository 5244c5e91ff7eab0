package quant

// Q2_K: 256 values in 16 groups of 16, x = d*sc*q - dmin*m with q in 0..3
// and 4-bit sc, m per group. Layout (84 bytes):
//
//	scales[16]  group j: sc in the low nibble, m in the high one
//	qs[64]      2-bit levels; byte 32*h+l holds values 128*h+l+32*k in bits 2k..2k+1
//	d, dmin     f16
const q2KBytes = 84

// packCrumbs stores 256 levels of 0..3 in the 2-bit layout of Q2_K/Q3_K.
func packCrumbs(L *[256]uint8, qs []byte) {
	qs = qs[:64]
	for h := 0; h < 2; h++ {
		for l := 0; l < 32; l++ {
			j := 128*h + l
			qs[32*h+l] = L[j] | L[j+32]<<2 | L[j+64]<<4 | L[j+96]<<6
		}
	}
}

func encodeQ2_K(src []float32, dst []byte) {
	var (
		L            [256]uint8
		laux         [16]uint8
		weights      [16]float32
		scales, mins [16]float32
	)
	for b := 0; b < len(src)/256; b++ {
		x, y := src[256*b:256*b+256], dst[q2KBytes*b:q2KBytes*b+q2KBytes]
		var maxScale, maxMin float32
		for j := 0; j < 16; j++ {
			xs := x[16*j : 16*j+16]
			for l, v := range xs {
				weights[l] = abs32(v)
			}
			scales[j], mins[j] = makeQKX2Quants(3, xs, weights[:], L[16*j:16*j+16], laux[:], -0.5, 0.1, 15, true)
			maxScale = max32Pos(maxScale, scales[j])
			maxMin = max32Pos(maxMin, mins[j])
		}
		sc := y[:16]
		if maxScale > 0 {
			iscale := 15 / maxScale
			for j := range sc {
				sc[j] = uint8(nearestInt(iscale * scales[j]))
			}
			putHalf(y, 80, maxScale/15)
		} else {
			clear(sc)
			putHalf(y, 80, 0)
		}
		if maxMin > 0 {
			iscale := 15 / maxMin
			for j := range sc {
				sc[j] |= uint8(nearestInt(iscale*mins[j]) << 4)
			}
			putHalf(y, 82, maxMin/15)
		} else {
			putHalf(y, 82, 0)
		}
		dAll, mAll := halfAt(y, 80), halfAt(y, 82)
		for j := 0; j < 16; j++ {
			d := dAll * float32(sc[j]&15)
			if d == 0 {
				continue
			}
			dm := float32(mAll * float32(sc[j]>>4)) // rounded: no fused add on arm64
			for i, v := range x[16*j : 16*j+16] {
				L[16*j+i] = uint8(clampInt(nearestInt((v+dm)/d), 0, 3))
			}
		}
		packCrumbs(&L, y[16:80])
	}
}

// max32Pos is "if (v > m) m = v" (NaN never wins).
func max32Pos(m, v float32) float32 {
	if v > m {
		return v
	}
	return m
}

func decodeQ2_K(src []byte, dst []float32) {
	for b := 0; b < len(dst)/256; b++ {
		x, y := src[q2KBytes*b:q2KBytes*b+q2KBytes], dst[256*b:256*b+256]
		d, mn := halfAt(x, 80), halfAt(x, 82)
		for g := 0; g < 16; g++ {
			// group g covers values 16g..16g+15: half h, crumb k, bytes 16*(g&1)..
			h, k, off := g/8, (g/2)%4, 16*(g&1)
			sc := x[g]
			dl, ml := d*float32(sc&15), float32(mn*float32(sc>>4))
			q := x[16+32*h+off : 16+32*h+off+16]
			out := y[16*g : 16*g+16]
			for l := range out {
				out[l] = float32(dl*float32(q[l]>>(2*k)&3)) - ml
			}
		}
	}
}
