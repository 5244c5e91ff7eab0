package quant

// Summation orders of llama.cpp's x86 CPU kernels (the AVX-512 build).
// Float results depend on the order of additions; these helpers reproduce
// the orders lane by lane so ember's sums equal llama.cpp's bit for bit.

// SumLanes16 is _mm512_reduce_add_ps as GCC expands it: halves added
// (256, then 128 bits), then lanes 0+2 and 1+3, then those two.
func SumLanes16(a *[16]float32) float32 {
	var t [8]float32
	for i := range t {
		t[i] = a[i+8] + a[i]
	}
	u0, u1, u2, u3 := t[4]+t[0], t[5]+t[1], t[6]+t[2], t[7]+t[3]
	return (u0 + u2) + (u1 + u3)
}

// SumLanes16Cols sets y[d] to SumLanes16 of the column (a[d], a[D+d], ...,
// a[15·D+d]) of a, 16 rows of D = len(y) values: the same additions, taken
// row against row instead of gathering each column.
func SumLanes16Cols(y, a []float32) {
	D := len(y)
	a = a[:16*D]
	r := func(l int) []float32 { return a[l*D : (l+1)*D] }
	a0, a1, a2, a3, a4, a5, a6, a7 := r(0), r(1), r(2), r(3), r(4), r(5), r(6), r(7)
	a8, a9, a10, a11, a12, a13, a14, a15 := r(8), r(9), r(10), r(11), r(12), r(13), r(14), r(15)
	for d := range y {
		u0 := (a12[d] + a4[d]) + (a8[d] + a0[d])
		u1 := (a13[d] + a5[d]) + (a9[d] + a1[d])
		u2 := (a14[d] + a6[d]) + (a10[d] + a2[d])
		u3 := (a15[d] + a7[d]) + (a11[d] + a3[d])
		y[d] = (u0 + u2) + (u1 + u3)
	}
}

// SumLanes8 is hsum_float_8 (and llamafile's hsum of a __m256): the high
// 128 bits added to the low, then lanes 0+2 and 1+3, then those two.
func SumLanes8(a *[8]float32) float32 {
	u0, u1, u2, u3 := a[4]+a[0], a[5]+a[1], a[6]+a[2], a[7]+a[3]
	return (u0 + u2) + (u1 + u3)
}

// DotF16Vec is ggml_vec_dot_f16's order (a single token's product against
// an F16 matrix): four 16-lane fused multiply-add accumulators over steps
// of 64 values, folded 0+2, 1+3, then 0+1 and reduced with SumLanes16; the
// values past the last whole step are added one product at a time in
// float64. x and y hold values already exact in F16.
func DotF16Vec(x, y []float32) float32 {
	n := len(x)
	y = y[:n]
	head, np := vecSteps(x, y)
	sum := float64(head)
	for i := np; i < n; i++ {
		sum += float64(x[i] * y[i])
	}
	return float32(sum)
}

// DotF32Vec is ggml_vec_dot_f32's order: DotF16Vec's four accumulators,
// then the values past the last whole step added to the float32 sum as
// its compiled loop does: 16 and then 8 at a time as rounded products
// added in turn, the last few with fused multiply-adds.
func DotF32Vec(x, y []float32) float32 {
	y = y[:len(x)]
	sum, i := vecSteps(x, y)
	return dotF32Tail(x, y, i, sum)
}

// dotF32Tail is DotF32Vec's part after its whole steps: the values of x·y
// from i on added to sum.
func dotF32Tail(x, y []float32, i int, sum float32) float32 {
	n := len(x)
	for ; n-i >= 16; i += 16 {
		for k := i; k < i+16; k++ {
			sum += float32(x[k] * y[k])
		}
	}
	if n-i >= 8 {
		for k := i; k < i+8; k++ {
			sum += float32(x[k] * y[k])
		}
		i += 8
	}
	for ; i < n; i++ {
		sum = FMA32(x[i], y[i], sum)
	}
	return sum
}

// dotRowsF32 is VecDotRows of F32 rows (the weights) against the F32
// activation act: every row's whole steps in one dotRowsStepsAsm call,
// then each row's tail as DotF32Vec adds it, so each row's sum is
// DotF32Vec's. Call only where hasDotStepsAsm.
func dotRowsF32(rows []byte, nrows int, act []byte, n int, out []float32) {
	x := f32View(act, n)
	w := f32View(rows, nrows*n)
	np := n &^ 63
	if np > 0 {
		dotRowsStepsAsm(&w[0], 4*n, &x[0], np, nrows, &out[0])
	} else {
		clear(out[:nrows])
	}
	if np == n {
		return
	}
	for r := range nrows {
		out[r] = dotF32Tail(w[r*n:(r+1)*n], x, np, out[r])
	}
}

// vecSteps is the vectorised part of ggml's single-token float dots: the
// whole 64-value steps of x·y in four 16-lane accumulators, folded; np is
// the number of values it took.
func vecSteps(x, y []float32) (sum float32, np int) {
	np = len(x) &^ 63
	if np > 0 && useAsm && hasDotStepsAsm {
		return dotStepsAsm(&x[0], &y[0], np), np
	}
	var acc [64]float32
	FMALanes(acc[:], x[:np], y[:np])
	return FoldLanes64(&acc), np
}

// foldAcc4 is GGML_F32x16_REDUCE of four accumulators.
func foldAcc4(acc *[4][16]float32) float32 {
	for l := 0; l < 16; l++ {
		acc[0][l] += acc[2][l]
		acc[1][l] += acc[3][l]
	}
	for l := 0; l < 16; l++ {
		acc[0][l] += acc[1][l]
	}
	return SumLanes16(&acc[0])
}

// DotGemm16 is llamafile's tinyBLAS order for F32 and F16 matrices (the
// product of a batch of two or more tokens): one 16-lane fused
// multiply-add accumulator over the whole row, reduced with SumLanes16.
// len(x) must be a multiple of 16 (tinyBLAS declines other sizes).
func DotGemm16(x, y []float32) float32 {
	n := len(x)
	y = y[:n]
	var acc [16]float32
	FMALanes(acc[:], x, y)
	return SumLanes16(&acc)
}

// FoldLanes64 reduces DotF16Vec's four accumulators, laid out one after
// the other, the way it does (for products accumulated elsewhere).
func FoldLanes64(a *[64]float32) float32 {
	var acc [4][16]float32
	for j := range acc {
		copy(acc[j][:], a[16*j:])
	}
	return foldAcc4(&acc)
}
