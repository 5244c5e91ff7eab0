package cpu

// swigluRow writes z[j] = silu(x[j])·y[j] with llama.cpp's SiLU
// (siluGGML), eight at a time in assembly where the CPU has AVX2
// (bit-identical to the loop below).
func swigluRow(x, y, z []float32) {
	n := len(z)
	x, y = x[:n], y[:n]
	done := 0
	if useExpAsm && n >= 8 {
		done = n &^ 7
		swigluAVX2(&x[0], &y[0], &z[0], done)
	}
	for j := done; j < n; j++ {
		z[j] = siluGGML(x[j]) * y[j]
	}
}
