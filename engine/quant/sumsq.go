package quant

// SumSquares4 is the sum of x[j]² in four float64 partial sums, x[j]²
// rounded to float32 and added to partial j%4 in order (the tail past the
// last whole four into the first), then the partials added in order: the
// CPU backend's RMSNorm (ggml sums the squares in double precision; four
// partials change the double sum only below float32 resolution).
func SumSquares4(x []float32) float64 {
	var s [4]float64
	j := 0
	if useAsm && hasSumSquaresAsm && len(x) >= 8 {
		j = len(x) &^ 7
		sumSquares4Asm(&x[0], j, &s)
	}
	for ; j+4 <= len(x); j += 4 {
		s[0] += float64(x[j] * x[j])
		s[1] += float64(x[j+1] * x[j+1])
		s[2] += float64(x[j+2] * x[j+2])
		s[3] += float64(x[j+3] * x[j+3])
	}
	for ; j < len(x); j++ {
		s[0] += float64(x[j] * x[j])
	}
	return s[0] + s[1] + s[2] + s[3]
}
