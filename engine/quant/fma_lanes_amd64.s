// acc[i % L] = fma(x[i], y[i], acc[i % L]) in order, the L lanes held in
// YMM registers (two for 16 lanes, eight for 64): each lane's chain of
// fused multiply-adds is the Go loop's, so the results agree bit for bit.

#include "textflag.h"
#include "fold_amd64.h"

// STEP64 is one 64-value step: acc lanes Y0-Y7 += x(SI) * y(DX), fused;
// SI and DX move on.
#define STEP64 \
	VMOVUPS 0(SI), Y8; \
	VMOVUPS 32(SI), Y9; \
	VMOVUPS 64(SI), Y10; \
	VMOVUPS 96(SI), Y11; \
	VFMADD231PS 0(DX), Y8, Y0; \
	VFMADD231PS 32(DX), Y9, Y1; \
	VFMADD231PS 64(DX), Y10, Y2; \
	VFMADD231PS 96(DX), Y11, Y3; \
	VMOVUPS 128(SI), Y8; \
	VMOVUPS 160(SI), Y9; \
	VMOVUPS 192(SI), Y10; \
	VMOVUPS 224(SI), Y11; \
	VFMADD231PS 128(DX), Y8, Y4; \
	VFMADD231PS 160(DX), Y9, Y5; \
	VFMADD231PS 192(DX), Y10, Y6; \
	VFMADD231PS 224(DX), Y11, Y7; \
	ADDQ $256, SI; \
	ADDQ $256, DX

// func fmaLanes16AVX2(acc, x, y *float32, n int)
TEXT ·fmaLanes16AVX2(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $4, CX
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
loop16:
	VMOVUPS 0(SI), Y8
	VMOVUPS 32(SI), Y9
	VFMADD231PS 0(DX), Y8, Y0
	VFMADD231PS 32(DX), Y9, Y1
	ADDQ $64, SI
	ADDQ $64, DX
	DECQ CX
	JNZ loop16
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VZEROUPPER
	RET

// func fmaLanes64AVX2(acc, x, y *float32, n int)
TEXT ·fmaLanes64AVX2(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $6, CX
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VMOVUPS 128(DI), Y4
	VMOVUPS 160(DI), Y5
	VMOVUPS 192(DI), Y6
	VMOVUPS 224(DI), Y7
loop64:
	STEP64
	DECQ CX
	JNZ loop64
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VZEROUPPER
	RET

// fmaLanes16F16AVX2 and fmaLanes64F16AVX2 are the same with x as
// half-precision values, widened on load (exact).

// func fmaLanes16F16AVX2(acc *float32, x *byte, y *float32, n int)
TEXT ·fmaLanes16F16AVX2(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $4, CX
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
loop16h:
	VCVTPH2PS 0(SI), Y8
	VCVTPH2PS 16(SI), Y9
	VFMADD231PS 0(DX), Y8, Y0
	VFMADD231PS 32(DX), Y9, Y1
	ADDQ $32, SI
	ADDQ $64, DX
	DECQ CX
	JNZ loop16h
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VZEROUPPER
	RET

// func fmaLanes64F16AVX2(acc *float32, x *byte, y *float32, n int)
TEXT ·fmaLanes64F16AVX2(SB), NOSPLIT, $0-32
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ y+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $6, CX
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VMOVUPS 128(DI), Y4
	VMOVUPS 160(DI), Y5
	VMOVUPS 192(DI), Y6
	VMOVUPS 224(DI), Y7
loop64h:
	VCVTPH2PS 0(SI), Y8
	VCVTPH2PS 16(SI), Y9
	VCVTPH2PS 32(SI), Y10
	VCVTPH2PS 48(SI), Y11
	VFMADD231PS 0(DX), Y8, Y0
	VFMADD231PS 32(DX), Y9, Y1
	VFMADD231PS 64(DX), Y10, Y2
	VFMADD231PS 96(DX), Y11, Y3
	VCVTPH2PS 64(SI), Y8
	VCVTPH2PS 80(SI), Y9
	VCVTPH2PS 96(SI), Y10
	VCVTPH2PS 112(SI), Y11
	VFMADD231PS 128(DX), Y8, Y4
	VFMADD231PS 160(DX), Y9, Y5
	VFMADD231PS 192(DX), Y10, Y6
	VFMADD231PS 224(DX), Y11, Y7
	ADDQ $128, SI
	ADDQ $256, DX
	DECQ CX
	JNZ loop64h
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VZEROUPPER
	RET

// func dotSteps64AVX2(x, y *float32, n int) float32: vecSteps, n a
// positive multiple of 64: the 64 lanes from zero as fmaLanes64AVX2 forms
// them, then FOLD64 (foldAcc4, SumLanes16) in registers, where the Go path
// stores the lanes and folds them in Go, per row.
TEXT ·dotSteps64AVX2(SB), NOSPLIT, $0-28
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DX
	MOVQ n+16(FP), CX
	SHRQ $6, CX
	ZERO64
steps:
	STEP64
	DECQ CX
	JNZ steps
	FOLD64
	MOVSS X0, ret+24(FP)
	VZEROUPPER
	RET

// func dotRowsSteps64AVX2(w *float32, stride int, x *float32, np, nrows int, out *float32):
// dotSteps64AVX2 of nrows rows of w (stride bytes apart) against x, np a
// positive multiple of 64, into out[0..nrows): each row's lanes and fold
// are that kernel's, in one call where a small model's short rows spent
// more on a call a row than on their multiply-adds.
TEXT ·dotRowsSteps64AVX2(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), R8
	MOVQ stride+8(FP), R9
	MOVQ x+16(FP), R10
	MOVQ np+24(FP), R11
	SHRQ $6, R11
	MOVQ nrows+32(FP), BX
	MOVQ out+40(FP), DI
row:
	MOVQ R8, SI
	MOVQ R10, DX
	MOVQ R11, CX
	ZERO64
rsteps:
	STEP64
	DECQ CX
	JNZ rsteps
	FOLD64
	MOVSS X0, 0(DI)
	ADDQ $4, DI
	ADDQ R9, R8
	DECQ BX
	JNZ row
	VZEROUPPER
	RET
