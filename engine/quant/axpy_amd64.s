// y[i] = fma(a, f16(v[i]), y[i]), 16 values a step, then one by one: each
// value gets one fused multiply-add, as in the Go loop.

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
	VMOVUPS 0(DI), Y3
	VMOVUPS 32(DI), Y4
	VFMADD231PS Y1, Y0, Y3
	VFMADD231PS Y2, Y0, Y4
	VMOVUPS Y3, 0(DI)
	VMOVUPS Y4, 32(DI)
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
	VMOVSS (DI), X3
	VFMADD231SS X1, X0, X3
	VMOVSS X3, (DI)
	ADDQ $2, SI
	ADDQ $4, DI
	DECQ CX
	JNZ one
done:
	VZEROUPPER
	RET
