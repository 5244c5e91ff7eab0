//go:build !amd64

package quant

// No interleaved Q8_0 kernels here: Q8_0 matrices stay in GGUF's layout.
var q80x4 struct{ rows, vnni, cols, cols2 bool }

func q80x4Rows(w, a *byte, nb, nrows int, out *float32) { panic("quant: no interleaved Q8_0 kernel") }

func q80x4Cols(w *byte, nb, nrows int, c *cols4) { panic("quant: no interleaved Q8_0 kernel") }

func q80x4Cols2(w, a0, a1, x0, x1 *byte, nb, nrows int, o0, o1 *float32) {
	panic("quant: no interleaved Q8_0 kernel")
}
