//go:build !amd64

package quant

// No interleaved Q8_0 kernels off amd64 (q80x4 is all false there).
func q80x4RowsAVX2() func(w, a *byte, nb, nrows int, out *float32) { return nil }
func q80x4RowsVNNI() func(w, a *byte, nb, nrows int, out *float32) { return nil }
