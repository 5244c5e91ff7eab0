// z = silu(x)·y, eight values a step, following siluGGML: exp(-x) as
// quant.ExpGGML computes it (exp_ggml_amd64.h), then x/(1+e)·y, so the
// results equal the Go loop's bit for bit.

#include "textflag.h"
#include "exp_ggml_amd64.h"

// func swigluAVX2(x, y, z *float32, n int)
TEXT ·swigluAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DX
	MOVQ z+16(FP), DI
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JZ done
	EXPINIT
loop:
	VMOVUPS (SI), Y15
	VXORPS Y0, Y0, Y0
	VSUBPS Y15, Y0, Y14       // t = 0 - x
	EXPGGML
	// silu(x)·y = x / (1 + e) · y
	VBROADCASTSS K(9), Y2
	VADDPS Y2, Y13, Y13
	VDIVPS Y13, Y15, Y13
	VMULPS (DX), Y13, Y13
	VMOVUPS Y13, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ loop
done:
	VZEROUPPER
	RET
