package cpu

//go:noescape
func swigluAVX2(x, y, z *float32, n int)
