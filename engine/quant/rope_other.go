//go:build !amd64

package quant

const hasRopeAsm = false

func ropeNormalAsm(y, x, cs *float32, n int)     { panic("quant: no rope assembly here") }
func ropeNeoxAsm(y, x, cs *float32, half, n int) { panic("quant: no rope assembly here") }
