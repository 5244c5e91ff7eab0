package quant

// hasRopeAsm: the rope kernels need AVX2 and FMA.
var hasRopeAsm = hasAVX2()

//go:noescape
func ropeNormalAVX2(y, x, cs *float32, n int)

//go:noescape
func ropeNeoxAVX2(y, x, cs *float32, half, n int)

func ropeNormalAsm(y, x, cs *float32, n int)     { ropeNormalAVX2(y, x, cs, n) }
func ropeNeoxAsm(y, x, cs *float32, half, n int) { ropeNeoxAVX2(y, x, cs, half, n) }
