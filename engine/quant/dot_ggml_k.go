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

// dotQ4_KG is Q4_K as llama.cpp multiplies a matrix whose row count is a
// multiple of 8 (on x86 it repacks those, and its gemv and gemm over the
// repacked rows compute this for every token): per super block the whole
// integer dot and the integer minimum sum, each accumulated with a fused
// multiply-add by its scale into its own float, subtracted at the end.
func dotQ4_KG(w, a []byte, n int) float32 {
	var acc, accMin float32
	for b := 0; b < n/256; b++ {
		x, y := w[144*b:144*b+144], a[q8KBytes*b:q8KBytes*b+q8KBytes]
		isum, mins := q4KBlockSums(x, y)
		yd := q8Kd(y)
		acc = FMA32(float32(isum), f16at(x, 0)*yd, acc)
		accMin = FMA32(float32(mins), f16at(x, 2)*yd, accMin)
	}
	return acc - accMin
}

// dotQ4_KGemmG is Q4_K as llama.cpp's repacked gemm computes it for each
// token of a group of four: like dotQ4_KG, but the dot and the minimums
// are fused into their floats once per pair of 32-value sub-blocks.
func dotQ4_KGemmG(w, a []byte, n int) float32 {
	var acc, accMin float32
	for b := 0; b < n/256; b++ {
		x, y := w[144*b:144*b+144], a[q8KBytes*b:q8KBytes*b+q8KBytes]
		yd := q8Kd(y)
		d, dmin := f16at(x, 0)*yd, f16at(x, 2)*yd
		for j := 0; j < 8; j += 2 {
			s0, m0 := q4KSubBlock(x, y, j)
			s1, m1 := q4KSubBlock(x, y, j+1)
			acc = FMA32(float32(s0+s1), d, acc)
			accMin = FMA32(float32(m0+m1), dmin, accMin)
		}
	}
	return acc - accMin
}

// q4KSubBlock is sub-block j's scaled integer dot and min·bsum.
func q4KSubBlock(x, y []byte, j int) (dot, min int32) {
	sc, m := q4KScaleMin(x[4:16], j)
	qs, ys := x[16+32*(j/2):][:32], y[4+32*j:][:32]
	var s int32
	for l, q := range qs {
		s += int32(q>>(4*uint(j%2))&15) * int32(int8(ys[l]))
	}
	return sc * s, m * (q8Kbsum(y, 2*j) + q8Kbsum(y, 2*j+1))
}

// q4KBlockSums is a Q4_K super block's scaled integer dot and Σ min·bsum.
func q4KBlockSums(x, y []byte) (isum, mins int32) {
	for j := 0; j < 8; j++ {
		s, m := q4KSubBlock(x, y, j)
		isum += s
		mins += m
	}
	return isum, mins
}

// dotQ4_KVecG is Q4_K through ggml_vec_dot_q4_K_q8_K (matrices llama.cpp
// does not repack): eight lanes as Q6_K, and the minimums in four float
// lanes, lane k taking sub-blocks 2k and 2k+1, folded as an SSE hsum.
func dotQ4_KVecG(w, a []byte, n int) float32 {
	var acc lanes8
	var accMin [4]float32
	for b := 0; b < n/256; b++ {
		x, y := w[144*b:144*b+144], a[q8KBytes*b:q8KBytes*b+q8KBytes]
		var s [8]int32
		var mins [8]int32 // per sub-block, paired below
		for j := 0; j < 8; j++ {
			sc, m := q4KScaleMin(x[4:16], j)
			mins[j] = m * (q8Kbsum(y, 2*j) + q8Kbsum(y, 2*j+1))
			qs := x[16+32*(j/2):][:32]
			for l, q := range qs {
				s[l/4] += sc * int32(q>>(4*uint(j%2))&15) * int32(int8(y[4+32*j+l]))
			}
		}
		yd := q8Kd(y)
		dmin := -yd * f16at(x, 2)
		for k := range accMin {
			accMin[k] = FMA32(dmin, float32(mins[2*k]+mins[2*k+1]), accMin[k])
		}
		acc.add(yd*f16at(x, 0), &s)
	}
	m := (accMin[0] + accMin[2]) + (accMin[1] + accMin[3])
	return SumLanes8((*[8]float32)(&acc)) + m
}
