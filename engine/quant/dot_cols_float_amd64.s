// Four-column products of F32 and F16 matrices in llamafile's tinyBLAS
// order (DotGemm16, DotGemm16H): each (row, column) pair has a 16-lane
// fused multiply-add accumulator over the whole row (two YMM registers,
// Y4-Y11 for the four columns), reduced with SumLanes16. One weight load
// serves the four columns, whose values the multiply-adds read from
// memory. AVX2, FMA and F16C.

#include "textflag.h"
#include "fold_amd64.h"

// ZEROCOLS clears the four columns' accumulators.
#define ZEROCOLS \
	VXORPS Y4, Y4, Y4; \
	VXORPS Y5, Y5, Y5; \
	VXORPS Y6, Y6, Y6; \
	VXORPS Y7, Y7, Y7; \
	VXORPS Y8, Y8, Y8; \
	VXORPS Y9, Y9, Y9; \
	VXORPS Y10, Y10, Y10; \
	VXORPS Y11, Y11, Y11

// ARGS loads the arguments: the weights (DI), the 16-value steps a row
// (R13), the rows (AX) and the columns (R12).
#define ARGS \
	MOVQ w+0(FP), DI; \
	MOVQ steps+8(FP), R13; \
	MOVQ nrows+16(FP), AX; \
	MOVQ c+24(FP), R12

// ROW starts a row: the four columns' activation pointers (cols4.act)
// into R8-R11, their accumulators cleared, the steps counted in CX.
#define ROW \
	MOVQ 0(R12), R8; \
	MOVQ 8(R12), R9; \
	MOVQ 16(R12), R10; \
	MOVQ 24(R12), R11; \
	ZEROCOLS; \
	MOVQ R13, CX

// FMACOLS adds the 16 weights in Y12 (0-7) and Y13 (8-15) times each
// column's next 16 activations to its accumulators, and moves the
// columns on.
#define FMACOLS \
	VFMADD231PS 0(R8), Y12, Y4; \
	VFMADD231PS 32(R8), Y13, Y5; \
	VFMADD231PS 0(R9), Y12, Y6; \
	VFMADD231PS 32(R9), Y13, Y7; \
	VFMADD231PS 0(R10), Y12, Y8; \
	VFMADD231PS 32(R10), Y13, Y9; \
	VFMADD231PS 0(R11), Y12, Y10; \
	VFMADD231PS 32(R11), Y13, Y11; \
	ADDQ $64, R8; \
	ADDQ $64, R9; \
	ADDQ $64, R10; \
	ADDQ $64, R11

// STORECOL stores SumLanes16 of lanes LO (0-7) and HI (8-15) at the
// column's output pointer (cols4.out, at OFF of R12) and moves it on.
#define STORECOL(LO, HI, OFF) \
	VADDPS LO, HI, Y2; \
	FOLD8(Y2, X2); \
	MOVQ OFF(R12), DX; \
	VMOVSS X0, 0(DX); \
	ADDQ $4, DX; \
	MOVQ DX, OFF(R12)

#define STORECOLS \
	STORECOL(Y4, Y5, 64); \
	STORECOL(Y6, Y7, 72); \
	STORECOL(Y8, Y9, 80); \
	STORECOL(Y10, Y11, 88)

// func dotColsF32AVX2(w *byte, steps, nrows int, c *cols4)
TEXT ·dotColsF32AVX2(SB), NOSPLIT, $0-32
	ARGS
rowf32:
	ROW
stepf32:
	VMOVUPS 0(DI), Y12
	VMOVUPS 32(DI), Y13
	FMACOLS
	ADDQ $64, DI
	DECQ CX
	JNZ stepf32
	STORECOLS
	DECQ AX
	JNZ rowf32
	VZEROUPPER
	RET

// func dotColsF16AVX2(w *byte, steps, nrows int, c *cols4)
TEXT ·dotColsF16AVX2(SB), NOSPLIT, $0-32
	ARGS
rowf16:
	ROW
stepf16:
	VCVTPH2PS 0(DI), Y12
	VCVTPH2PS 16(DI), Y13
	FMACOLS
	ADDQ $32, DI
	DECQ CX
	JNZ stepf16
	STORECOLS
	DECQ AX
	JNZ rowf16
	VZEROUPPER
	RET
