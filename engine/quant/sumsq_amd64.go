package quant

var hasSumSquaresAsm = hasAVX2()

//go:noescape
func sumSquares4AVX2(x *float32, n int, s *[4]float64)

func sumSquares4Asm(x *float32, n int, s *[4]float64) { sumSquares4AVX2(x, n, s) }
