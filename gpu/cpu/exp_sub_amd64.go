package cpu

import "github.com/emberllm/ember/engine/quant"

// useExpAsm: the kernels built on exp_ggml_amd64.h (SwiGLU, expSub) need
// AVX2 with FMA and F16C.
var useExpAsm = quant.AVX2()

//go:noescape
func expSubAVX2(x *float32, m float32, n int)
