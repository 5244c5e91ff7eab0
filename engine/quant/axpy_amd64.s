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

// axpyRowsF16AVX2 is axpyF16AVX2 of n rows in turn (FMAScaledF16Rows):
// row j, D halves at byte j·stride of v, times sc[j] into lane j%L of
// acc, eight values a step, then one by one.
// func axpyRowsF16AVX2(acc *float32, L, D int, sc *float32, v *byte, stride, n int)
TEXT ·axpyRowsF16AVX2(SB), NOSPLIT, $0-56
	MOVQ acc+0(FP), DI
	MOVQ L+8(FP), R8
	MOVQ D+16(FP), R9
	MOVQ sc+24(FP), SI
	MOVQ v+32(FP), DX
	MOVQ stride+40(FP), R10
	MOVQ n+48(FP), CX
	XORQ R11, R11
row:
	// R12: lane R11's first accumulator; AX: the row's halves; BX: values left
	MOVQ R11, R13
	IMULQ R9, R13
	LEAQ (DI)(R13*4), R12
	VBROADCASTSS (SI), Y0
	MOVQ DX, AX
	MOVQ R9, BX
	CMPQ BX, $8
	JLT rtail
r8:
	VCVTPH2PS 0(AX), Y1
	VMOVUPS 0(R12), Y3
	VFMADD231PS Y1, Y0, Y3
	VMOVUPS Y3, 0(R12)
	ADDQ $16, AX
	ADDQ $32, R12
	SUBQ $8, BX
	CMPQ BX, $8
	JGE r8
rtail:
	TESTQ BX, BX
	JZ rnext
r1:
	MOVWLZX (AX), R13
	VMOVD R13, X1
	VCVTPH2PS X1, X1
	VMOVSS (R12), X3
	VFMADD231SS X1, X0, X3
	VMOVSS X3, (R12)
	ADDQ $2, AX
	ADDQ $4, R12
	DECQ BX
	JNZ r1
rnext:
	ADDQ $4, SI
	ADDQ R10, DX
	INCQ R11
	CMPQ R11, R8
	JLT same
	XORQ R11, R11
same:
	DECQ CX
	JNZ row
	VZEROUPPER
	RET
