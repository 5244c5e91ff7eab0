package cpu

import "github.com/emberllm/ember/engine/quant"

//go:noescape
func swigluAVX2(x, y, z *float32, n int)

var useExpAsm = quant.AVX2()

//go:noescape
func expSubAVX2(x *float32, m float32, n int)
