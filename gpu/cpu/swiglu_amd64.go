package cpu

import "github.com/emberllm/ember/engine/quant"

//go:noescape
func swigluAVX2(x, y, z *float32, n int)

var useSwigluAsm = quant.AVX2()
