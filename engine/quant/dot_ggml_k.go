package quant

// K-quant dots in the order of llama.cpp's AVX2 vec_dot kernels (which
// its AVX-512 build runs too): each super block's integer products are
// summed into eight int32 lanes, lane i holding values 4i..4i+3 of every
// 32-value chunk with their sub-block scales applied, the block's
// minimum or offset term subtracted lane by lane, and the lanes then
// accumulated into eight float lanes with a fused multiply-add by the
// super block's scale; SumLanes8 folds them at the end.

func dotQ6_KG(w, a []byte, n int) float32 {
	var acc lanes8
	for b := 0; b < n/256; b++ {
		x, y := w[210*b:210*b+210], a[q8KBytes*b:q8KBytes*b+q8KBytes]
		var s [8]int32
		for v := 0; v < 256; v++ {
			h, c, l := v/128, v%128/32, v%32
			q := int32(x[64*h+32*(c%2)+l]>>(4*uint(c/2))&15) | int32(x[128+32*h+l]>>(2*uint(c))&3)<<4
			s[l/4] += int32(int8(x[192+v/16])) * q * int32(int8(y[4+v]))
		}
		// the -32 offset of every value, as 32·scale·(sum of 16
		// activations), lane i taking sub-blocks 2i and 2i+1
		for i := range s {
			s[i] -= 32 * (int32(int8(x[192+2*i]))*q8Kbsum(y, 2*i) + int32(int8(x[193+2*i]))*q8Kbsum(y, 2*i+1))
		}
		acc.add(q8Kd(y)*f16at(x, 208), &s)
	}
	return SumLanes8((*[8]float32)(&acc))
}

// dotQ5_KG: Q5_K's minimums are one integer sum per super block
// (Σ min_j · activation sum of sub-block j), scaled by -d_y·dmin and
// accumulated with a fused multiply-add into a float beside the lanes.
func dotQ5_KG(w, a []byte, n int) float32 {
	var acc lanes8
	var summs float32
	for b := 0; b < n/256; b++ {
		x, y := w[176*b:176*b+176], a[q8KBytes*b:q8KBytes*b+q8KBytes]
		var s [8]int32
		var mins int32
		for j := 0; j < 8; j++ {
			sc, m := q4KScaleMin(x[4:16], j)
			mins += m * (q8Kbsum(y, 2*j) + q8Kbsum(y, 2*j+1))
			qs := x[48+32*(j/2):][:32]
			for l, q := range qs {
				v := int32(q>>(4*uint(j%2))&15) | int32(x[16+l]>>uint(j)&1)<<4
				s[l/4] += sc * v * int32(int8(y[4+32*j+l]))
			}
		}
		yd := q8Kd(y)
		summs = FMA32(-yd*f16at(x, 2), float32(mins), summs)
		acc.add(yd*f16at(x, 0), &s)
	}
	return SumLanes8((*[8]float32)(&acc)) + summs
}
