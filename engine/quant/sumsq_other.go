//go:build !amd64

package quant

const hasSumSquaresAsm = false

func sumSquares4Asm(x *float32, n int, s *[4]float64) { panic("quant: no sumSquares4Asm here") }
