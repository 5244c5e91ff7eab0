// y[i] += a·f16(v[i]), 16 values a step, then one by one; multiply and
// add are separate instructions, as in the Go loop.

#include "textflag.h"

// func axpyF16AVX2(y *float32, a float32, v *byte, n int)
TEXT ·axpyF16AVX2(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	VBROADCASTSS a+8(FP), Y0
	MOVQ v+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ CX, DX
	SHRQ $4, DX
	JZ tail
loop:
	VCVTPH2PS 0(SI), Y1
	VCVTPH2PS 16(SI), Y2
	VMULPS Y0, Y1, Y1
	VMULPS Y0, Y2, Y2
	VADDPS 0(DI), Y1, Y1
	VADDPS 32(DI), Y2, Y2
	VMOVUPS Y1, 0(DI)
	VMOVUPS Y2, 32(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ DX
	JNZ loop
tail:
	ANDQ $15, CX
	JZ done
one:
	MOVWLZX (SI), AX
	VMOVD AX, X1
	VCVTPH2PS X1, X1
	VMULSS X0, X1, X1
	VADDSS (DI), X1, X1
	VMOVSS X1, (DI)
	ADDQ $2, SI
	ADDQ $4, DI
	DECQ CX
	JNZ one
done:
	VZEROUPPER
	RET
