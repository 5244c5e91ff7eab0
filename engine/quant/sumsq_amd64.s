// SumSquares4's whole steps: four float64 partial sums in one YMM, the
// float32 squares of four values widened and added, four at a time in
// order.

#include "textflag.h"

// func sumSquares4AVX2(x *float32, n int, s *[4]float64): n a positive
// multiple of 8; s is added to.
TEXT ·sumSquares4AVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ s+16(FP), DI
	SHRQ $3, CX
	VMOVUPD 0(DI), Y0
sq:
	VMOVUPS 0(SI), Y1
	VMULPS Y1, Y1, Y1
	VCVTPS2PD X1, Y2
	VEXTRACTF128 $1, Y1, X3
	VCVTPS2PD X3, Y3
	VADDPD Y2, Y0, Y0
	VADDPD Y3, Y0, Y0
	ADDQ $32, SI
	DECQ CX
	JNZ sq
	VMOVUPD Y0, 0(DI)
	VZEROUPPER
	RET
