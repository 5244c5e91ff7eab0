// x[i] = exp(x[i] - m), eight values a step, as quant.ExpGGML(x[i] - m)
// computes it (exp_ggml_amd64.h): softmax's exponentials.

#include "textflag.h"
#include "exp_ggml_amd64.h"

// func expSubAVX2(x *float32, m float32, n int)
// n is a multiple of eight.
TEXT ·expSubAVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	VBROADCASTSS m+8(FP), Y15
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	JZ done
	EXPINIT
loop:
	VMOVUPS (SI), Y14
	VSUBPS Y15, Y14, Y14
	EXPGGML
	VMOVUPS Y13, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ loop
done:
	VZEROUPPER
	RET
