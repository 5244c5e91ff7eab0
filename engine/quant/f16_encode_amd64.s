// binary16 narrowing of float32, eight values a step with F16C's
// VCVTPS2PH, rounding to nearest even (immediate 0).

#include "textflag.h"

// func encodeF16AVX2(dst *uint16, src *float32, n int): n a positive
// multiple of 8.
TEXT ·encodeF16AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
loop:
	VMOVUPS 0(SI), Y0
	VCVTPS2PH $0, Y0, X1
	VMOVDQU X1, 0(DI)
	ADDQ $32, SI
	ADDQ $16, DI
	DECQ CX
	JNZ loop
	VZEROUPPER
	RET

// func roundF16AVX2(dst, src *float32, n int): each value through binary16
// and back, n a positive multiple of 8.
TEXT ·roundF16AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
rloop:
	VMOVUPS 0(SI), Y0
	VCVTPS2PH $0, Y0, X1
	VCVTPH2PS X1, Y1
	VMOVUPS Y1, 0(DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ rloop
	VZEROUPPER
	RET
