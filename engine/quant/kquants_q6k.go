package quant

// Q6_K: 256 values in 16 groups of 16, x = d*sc*(q-32) with q in 0..63 and
// an int8 sc per group. Layout (210 bytes):
//
//	ql[128]     low nibbles: for half h, byte 64h+l holds values 128h+l (low)
//	            and 128h+64+l (high); byte 64h+32+l holds 128h+32+l and 128h+96+l
//	qh[64]      top 2 bits: byte 32h+l holds values 128h+l+32k at bits 2k..2k+1
//	scales[16]  int8
//	d           f16
const q6KBytes = 210

func encodeQ6_K(src []float32, dst []byte) {
	var (
		L      [256]int8
		scales [16]float32
	)
	for b := 0; b < len(src)/256; b++ {
		x, y := src[256*b:256*b+256], dst[q6KBytes*b:q6KBytes*b+q6KBytes]
		var maxScale, maxAbs float32
		for g := 0; g < 16; g++ {
			scales[g] = makeQXQuantsRMSE(32, x[16*g:16*g+16], L[16*g:16*g+16])
			if a := abs32(scales[g]); a > maxAbs {
				maxAbs, maxScale = a, scales[g]
			}
		}
		if maxAbs < groupMaxEps {
			clear(y)
			continue
		}
		iscale := -128 / maxScale
		putHalf(y, 208, 1/iscale)
		sc := y[192:208]
		for g := range sc {
			sc[g] = uint8(int8(min(127, nearestInt(iscale*scales[g]))))
		}
		dAll := halfAt(y, 208)
		for g := 0; g < 16; g++ {
			d := dAll * float32(int8(sc[g]))
			if d == 0 {
				continue
			}
			for i, v := range x[16*g : 16*g+16] {
				L[16*g+i] = int8(clampInt(nearestInt(v/d), -32, 31) + 32)
			}
		}
		for h := 0; h < 2; h++ {
			ql, qh := y[64*h:64*h+64], y[128+32*h:128+32*h+32]
			Lh := L[128*h : 128*h+128]
			for l := 0; l < 32; l++ {
				q1, q2, q3, q4 := uint8(Lh[l]), uint8(Lh[l+32]), uint8(Lh[l+64]), uint8(Lh[l+96])
				ql[l] = q1&15 | (q3&15)<<4
				ql[l+32] = q2&15 | (q4&15)<<4
				qh[l] = q1>>4 | (q2>>4)<<2 | (q3>>4)<<4 | (q4>>4)<<6
			}
		}
	}
}

func decodeQ6_K(src []byte, dst []float32) {
	for b := 0; b < len(dst)/256; b++ {
		x, y := src[q6KBytes*b:q6KBytes*b+q6KBytes], dst[256*b:256*b+256]
		d := halfAt(x, 208)
		for h := 0; h < 2; h++ {
			ql, qh := x[64*h:64*h+64], x[128+32*h:128+32*h+32]
			sc := x[192+8*h : 192+8*h+8]
			out := y[128*h : 128*h+128]
			for l := 0; l < 32; l++ {
				is := l / 16
				q1 := int32(ql[l]&15|(qh[l]&3)<<4) - 32
				q2 := int32(ql[l+32]&15|(qh[l]>>2&3)<<4) - 32
				q3 := int32(ql[l]>>4|(qh[l]>>4&3)<<4) - 32
				q4 := int32(ql[l+32]>>4|(qh[l]>>6&3)<<4) - 32
				out[l] = d * float32(int8(sc[is])) * float32(q1)
				out[l+32] = d * float32(int8(sc[is+2])) * float32(q2)
				out[l+64] = d * float32(int8(sc[is+4])) * float32(q3)
				out[l+96] = d * float32(int8(sc[is+6])) * float32(q4)
			}
		}
	}
}
