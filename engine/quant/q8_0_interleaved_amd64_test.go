package quant

// Each interleaved Q8_0 rows kernel by name, for TestInterleavedQ8_0Dot.
func q80x4RowsAVX2() func(w, a *byte, nb, nrows int, out *float32) { return dotQ8_0x4AVX2 }
func q80x4RowsVNNI() func(w, a *byte, nb, nrows int, out *float32) { return dotQ8_0x4VNNI }
