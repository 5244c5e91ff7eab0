package quant

// Interleaved Q8_0 kernels: rows (q8_0_interleaved_amd64.s, AVX2 and an
// AVX-512 VNNI twin that takes each block's integer part in one
// instruction instead of two), four columns (dot_cols_amd64.s, VNNI) and
// two columns (AVX2, q8_0_interleaved_amd64.s, for matrices without a -128
// quant).

//go:noescape
func dotQ8_0x4AVX2(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotQ8_0x4VNNI(w, a *byte, nb, nrows int, out *float32)

//go:noescape
func dotColsQ8_0x4VNNI(w *byte, nb, nrows int, c *cols4)

//go:noescape
func dotCols2Q8_0x4AVX2(w, a0, a1, x0, x1 *byte, nb, nrows int, o0, o1 *float32)

// q80x4 says which interleaved Q8_0 kernels this CPU runs: rows (AVX2, or
// VNNI where vnni), the VNNI four-column kernel (cols) or the AVX2
// two-column one (cols2), whose side data differ (ColAux).
var q80x4 struct{ rows, vnni, cols, cols2 bool }

func init() {
	q80x4.rows = hasAVX2()
	q80x4.vnni = hasVNNI()
	q80x4.cols = q80x4.vnni
	q80x4.cols2 = q80x4.rows && !q80x4.vnni
}

func q80x4Rows(w, a *byte, nb, nrows int, out *float32) {
	if q80x4.vnni {
		dotQ8_0x4VNNI(w, a, nb, nrows, out)
		return
	}
	dotQ8_0x4AVX2(w, a, nb, nrows, out)
}

func q80x4Cols(w *byte, nb, nrows int, c *cols4) { dotColsQ8_0x4VNNI(w, nb, nrows, c) }

func q80x4Cols2(w, a0, a1, x0, x1 *byte, nb, nrows int, o0, o1 *float32) {
	dotCols2Q8_0x4AVX2(w, a0, a1, x0, x1, nb, nrows, o0, o1)
}
