// Four-column kernels with AVX-512 VNNI on 256-bit registers. Per weight
// row, each group of four blocks is unpacked once into Y4-Y7, then every
// column takes one VPDPBUSD per block, folds the four blocks' sums to
// int32 in block order, and scales and accumulates them exactly as the
// one-column kernels do (lanes b%4, folded (0+1)+(2+3), then the last
// nb%4 blocks one by one), so the results are bit-identical. The Q8_0
// kernel, whose one-column kernel follows llama.cpp's order, is laid out
// differently, on 512-bit registers (see its comment).
//
// Registers: SI weights, R8-R11 the columns' activations, AX BX DX DI
// their side data (ColAux), CX blocks, R12 rows left, R13 the cols4
// struct; Y0-Y3 block sums, X8 scratch, X9 the weight scales, X10 X11 X13
// X15 the columns' sums, Y12/Y14 nibble shift and mask.

#include "textflag.h"
#include "fold_amd64.h"

// The nibble mask, and per-dword shifts that move the high nibbles into
// the high 128-bit lane (values 16..31 of a block).
DATA colsMask<>+0(SB)/4, $0x0f0f0f0f
GLOBL colsMask<>(SB), RODATA|NOPTR, $4
DATA colsShift<>+0(SB)/8, $0
DATA colsShift<>+8(SB)/8, $0
DATA colsShift<>+16(SB)/8, $0x0000000400000004
DATA colsShift<>+24(SB)/8, $0x0000000400000004
GLOBL colsShift<>(SB), RODATA|NOPTR, $32

// cols4 field offsets.
#define ACT0 0
#define AUX0 32
#define OUT0 64

// LOADACTS starts a row: the columns' activations, zero sums.
#define LOADACTS \
	MOVQ ACT0+0(R13), R8; \
	MOVQ ACT0+8(R13), R9; \
	MOVQ ACT0+16(R13), R10; \
	MOVQ ACT0+24(R13), R11; \
	VXORPS X10, X10, X10; \
	VXORPS X11, X11, X11; \
	VXORPS X13, X13, X13; \
	VXORPS X15, X15, X15

// LOADCOLS is LOADACTS with the columns' side data.
#define LOADCOLS \
	LOADACTS; \
	MOVQ AUX0+0(R13), AX; \
	MOVQ AUX0+8(R13), BX; \
	MOVQ AUX0+16(R13), DX; \
	MOVQ AUX0+24(R13), DI

#define ADVACTS(wstep, astep) \
	ADDQ $wstep, SI; \
	ADDQ $astep, R8; \
	ADDQ $astep, R9; \
	ADDQ $astep, R10; \
	ADDQ $astep, R11

#define ADVANCE(wstep, astep, xstep) \
	ADVACTS(wstep, astep); \
	ADDQ $xstep, AX; \
	ADDQ $xstep, BX; \
	ADDQ $xstep, DX; \
	ADDQ $xstep, DI

// FOLD4 leaves (0+1)+(2+3) of ACC's lanes in its lane 0.
#define FOLD4(ACC) \
	VMOVSHDUP ACC, X0; \
	VADDPS ACC, X0, X0; \
	VMOVHLPS X0, X0, X1; \
	VADDSS X1, X0, ACC

#define STORE(off, ACC) \
	MOVQ OUT0+off(R13), R8; \
	VMOVSS ACC, (R8); \
	ADDQ $4, R8; \
	MOVQ R8, OUT0+off(R13)

#define STOREALL \
	STORE(0, X10); \
	STORE(8, X11); \
	STORE(16, X13); \
	STORE(24, X15)

// SUMS4 folds the four blocks' int32 vectors Y0-Y3 to X0 in block order.
#define SUMS4 \
	VPHADDD Y1, Y0, Y0; \
	VPHADDD Y3, Y2, Y2; \
	VPHADDD Y2, Y0, Y0; \
	VEXTRACTI128 $1, Y0, X1; \
	VPADDD X1, X0, X0

#define HSUM1 \
	VEXTRACTI128 $1, Y0, X1; \
	VPADDD X1, X0, X0; \
	VPSHUFD $0x4E, X0, X1; \
	VPADDD X1, X0, X0; \
	VPSHUFD $0xB1, X0, X1; \
	VPADDD X1, X0, X0

// The skeleton shared by the 32-value kernels: rows, then groups of four
// blocks, then the last nb%4 blocks one by one.
#define PROLOGUE32 \
	MOVQ w+0(FP), SI; \
	MOVQ nrows+16(FP), R12; \
	MOVQ c+24(FP), R13; \
	TESTQ R12, R12; \
	JZ end; \
row: \
	LOADCOLS; \
	MOVQ nb+8(FP), CX; \
	SHRQ $2, CX; \
	JZ fold; \
group:

#define GROUPSEND(wstep, astep) \
	ADVANCE(wstep, astep, 32); \
	DECQ CX; \
	JNZ group; \
fold: \
	FOLD4(X10); \
	FOLD4(X11); \
	FOLD4(X13); \
	FOLD4(X15); \
	MOVQ nb+8(FP), CX; \
	ANDQ $3, CX; \
	JZ store; \
tail:

#define TAILSEND(wstep, astep) \
	ADVANCE(wstep, astep, 4); \
	DECQ CX; \
	JNZ tail; \
store: \
	STOREALL; \
	DECQ R12; \
	JNZ row; \
end: \
	VZEROUPPER; \
	RET

// EACHCOL applies a column macro to the four columns.
#define EACHCOL(M) \
	M(R8, AX, X10); \
	M(R9, BX, X11); \
	M(R10, DX, X13); \
	M(R11, DI, X15)

// SCALES4 converts the f16 scales of four blocks, at 0, s1, s2 and s3
// from SI, to X9.
#define SCALES4(s1, s2, s3) \
	VPINSRW $0, 0(SI), X9, X9; \
	VPINSRW $1, s1(SI), X9, X9; \
	VPINSRW $2, s2(SI), X9, X9; \
	VPINSRW $3, s3(SI), X9, X9; \
	VCVTPH2PS X9, X9

// NIB unpacks the Q4_0 block at off(SI) to 32 bytes 0..15 in Y, in the
// activations' value order.
#define NIB(off, Y) \
	VBROADCASTI128 off(SI), Y; \
	VPSRLVD Y12, Y, Y; \
	VPAND Y14, Y, Y

// Q4_0: 18-byte blocks; a block's dot is Σq·a - 8Σa (the second term
// from the side data), scaled as (s·dw)·da.
#define COLQ40(A, X, ACC) \
	VPXOR Y0, Y0, Y0; \
	VPXOR Y1, Y1, Y1; \
	VPXOR Y2, Y2, Y2; \
	VPXOR Y3, Y3, Y3; \
	VPDPBUSD 2(A), Y4, Y0; \
	VPDPBUSD 36(A), Y5, Y1; \
	VPDPBUSD 70(A), Y6, Y2; \
	VPDPBUSD 104(A), Y7, Y3; \
	SUMS4; \
	VPSUBD (X), X0, X0; \
	VCVTDQ2PS X0, X0; \
	VMULPS X9, X0, X0; \
	VMULPS 16(X), X0, X0; \
	VADDPS X0, ACC, ACC

#define TAILQ40(A, X, ACC) \
	VPXOR Y0, Y0, Y0; \
	VPDPBUSD 2(A), Y4, Y0; \
	HSUM1; \
	VMOVD (X), X1; \
	VPSUBD X1, X0, X0; \
	VCVTDQ2PS X0, X0; \
	VMULSS X9, X0, X0; \
	VMULSS 16(X), X0, X0; \
	VADDSS X0, ACC, ACC

// func dotColsQ4_0VNNI(w *byte, nb, nrows int, c *cols4)
TEXT ·dotColsQ4_0VNNI(SB), NOSPLIT, $0-32
	VPBROADCASTD colsMask<>(SB), Y14
	VMOVDQU colsShift<>(SB), Y12
	PROLOGUE32
	NIB(2, Y4)
	NIB(20, Y5)
	NIB(38, Y6)
	NIB(56, Y7)
	SCALES4(18, 36, 54)
	EACHCOL(COLQ40)
	GROUPSEND(72, 136)
	NIB(2, Y4)
	VCVTPH2PS (SI), X9
	EACHCOL(TAILQ40)
	TAILSEND(18, 34)

// Q8_0 in llama.cpp's order (dot_ggml.go), which the one-column kernel
// keeps: per block, eight int32 lanes of four products each, converted and
// fused-multiply-added by the block's dw·da into eight float lanes per row
// and column, folded as hsum_float_8 at the end of the row. This kernel
// takes two rows at a time on 512-bit registers, row r in lanes 0-7 and
// row r+1 in lanes 8-15, so every instruction advances two rows' lanes;
// each weight block pair is loaded once for the four columns.
//
// VPDPBUSD wants one unsigned side. The columns' side data (ColAux) holds
// each activation block biased to unsigned, u = a+128 (a XOR 0x80), then
// each block's da as an f32. Then Σu·w = Σa·w + 128·Σw, and the second
// term, the same for every column, is taken once per block pair (as
// VPDPBUSD of 0x80 bytes against w) and put, negated, in each column's
// integer accumulator before its VPDPBUSD: the lane sums are then Σa·w,
// exact integers (|4·255·128| is far within int32), the ones llama.cpp's
// VPMADDUBSW/VPMADDWD pairs give. dw·da is the same float32 product the
// one-column kernel rounds (a multiply of the rows' dw by a broadcast da).
//
// The main loop takes four rows (two such pairs) per pass, so each
// column's u and da are loaded once for both pairs; a last pair of rows
// takes a loop of its own.
//
// Registers: SI row r's blocks, R12 row r+2's, R14 the row size in bytes,
// R8-R11 the columns' u, AX DX DI R15 their da, BX the block index times
// 4, CX blocks left; the row pairs left are in a local. Z16-Z19 and Z8-Z11
// the columns' float lanes of the two pairs, Z20 0x80 bytes; per pair the
// two rows' weights (Z21, Z12), -128·Σw (Z22, Z13) and dw (Z23, Z14);
// Z24-Z28 and Z30 scratch.

DATA colsBias<>+0(SB)/4, $0x80808080
GLOBL colsBias<>(SB), RODATA|NOPTR, $4

// PAIRQ80 loads the block of rows P and P+R14 for a pair: weights to W,
// -128·Σw to BIAS, dw (row P's in lanes 0-7) to DW.
#define PAIRQ80(P, W, BIAS, DW) \
	VMOVDQU64 2(P), Y24; \
	VINSERTI64X4 $1, 2(P)(R14*1), Z24, W; \
	VPBROADCASTW (P), X24; \
	VPBROADCASTW (P)(R14*1), X25; \
	VINSERTI32X4 $1, X25, Y24, Y24; \
	VCVTPH2PS Y24, DW; \
	VPXORD Z25, Z25, Z25; \
	VPDPBUSD W, Z20, Z25; \
	VPXORD BIAS, BIAS, BIAS; \
	VPSUBD Z25, BIAS, BIAS

// DOTQ80 advances a pair's lanes ACC by one block of the column whose u
// is in Z24 and da in Z30 (T, S scratch).
#define DOTQ80(W, BIAS, DW, ACC, T, S) \
	VMOVDQA64 BIAS, T; \
	VPDPBUSD W, Z24, T; \
	VCVTDQ2PS T, T; \
	VMULPS Z30, DW, S; \
	VFMADD231PS T, S, ACC

// COL2Q80 and COL4Q80 advance one column (u at A, da at X) for one pair
// and for two.
#define COLLOAD(A, X) \
	VBROADCASTI64X4 (A)(BX*8), Z24; \
	VBROADCASTSS (X)(BX*1), Z30

#define COL2Q80(A, X, ACC) \
	COLLOAD(A, X); \
	DOTQ80(Z21, Z22, Z23, ACC, Z25, Z26)

#define COL4Q80(A, X, ACC, ACC2) \
	COLLOAD(A, X); \
	DOTQ80(Z21, Z22, Z23, ACC, Z25, Z26); \
	DOTQ80(Z12, Z13, Z14, ACC2, Z27, Z28)

// FOLDPAIR folds a pair's lanes of one column as the one-column kernel
// does (FOLD8), row by row, and stores them at o(CX) and o+4(CX).
#define FOLDPAIR(ACC, YACC, o) \
	VMOVAPS YACC, Y2; \
	FOLD8(Y2, X2); \
	VMOVSS X0, o(CX); \
	VEXTRACTF64X4 $1, ACC, Y2; \
	FOLD8(Y2, X2); \
	VMOVSS X0, o+4(CX)

#define STORE2Q80(off, ACC, YACC) \
	MOVQ OUT0+off(R13), CX; \
	FOLDPAIR(ACC, YACC, 0); \
	ADDQ $8, CX; \
	MOVQ CX, OUT0+off(R13)

#define STORE4Q80(off, ACC, YACC, ACC2, YACC2) \
	MOVQ OUT0+off(R13), CX; \
	FOLDPAIR(ACC, YACC, 0); \
	FOLDPAIR(ACC2, YACC2, 8); \
	ADDQ $16, CX; \
	MOVQ CX, OUT0+off(R13)

#define ZEROQ80(A, B, C, D) \
	VPXORD A, A, A; \
	VPXORD B, B, B; \
	VPXORD C, C, C; \
	VPXORD D, D, D

// Q80SIDE loads the four columns' side data for the Q8_0 kernels: the
// cols4 at R13, the columns' biased values u at R8-R11 and their da at AX,
// DX, DI, R15 (u's 32·nb bytes further on).
#define Q80SIDE \
	MOVQ c+24(FP), R13; \
	MOVQ nb+8(FP), R14; \
	SHLQ $5, R14; \
	MOVQ AUX0+0(R13), R8; \
	MOVQ AUX0+8(R13), R9; \
	MOVQ AUX0+16(R13), R10; \
	MOVQ AUX0+24(R13), R11; \
	LEAQ (R8)(R14*1), AX; \
	LEAQ (R9)(R14*1), DX; \
	LEAQ (R10)(R14*1), DI; \
	LEAQ (R11)(R14*1), R15

// func dotColsQ8_0VNNI(w *byte, nb, nrows int, c *cols4)
// nrows must be even (VecDotCols takes an odd last row one column at a
// time) and nb positive.
TEXT ·dotColsQ8_0VNNI(SB), NOSPLIT, $8-32
	MOVQ w+0(FP), SI
	MOVQ nrows+16(FP), CX
	SHRQ $1, CX
	JZ q80end
	MOVQ CX, pairs-8(SP)
	Q80SIDE
	// R14: nb·34, the bytes of a row.
	MOVQ nb+8(FP), CX
	SHLQ $1, CX
	ADDQ CX, R14
	VPBROADCASTD colsBias<>(SB), Z20
	CMPQ pairs-8(SP), $2
	JB q80pair
q80quad:
	LEAQ (SI)(R14*2), R12
	ZEROQ80(Z16, Z17, Z18, Z19)
	ZEROQ80(Z8, Z9, Z10, Z11)
	XORQ BX, BX
	MOVQ nb+8(FP), CX
q80quadblock:
	PAIRQ80(SI, Z21, Z22, Z23)
	PAIRQ80(R12, Z12, Z13, Z14)
	COL4Q80(R8, AX, Z16, Z8)
	COL4Q80(R9, DX, Z17, Z9)
	COL4Q80(R10, DI, Z18, Z10)
	COL4Q80(R11, R15, Z19, Z11)
	ADDQ $34, SI
	ADDQ $34, R12
	ADDQ $4, BX
	DECQ CX
	JNZ q80quadblock
	STORE4Q80(0, Z16, Y16, Z8, Y8)
	STORE4Q80(8, Z17, Y17, Z9, Y9)
	STORE4Q80(16, Z18, Y18, Z10, Y10)
	STORE4Q80(24, Z19, Y19, Z11, Y11)
	// R12 is at the end of row r+2: the next four rows start after r+3.
	LEAQ (R12)(R14*1), SI
	SUBQ $2, pairs-8(SP)
	CMPQ pairs-8(SP), $2
	JAE q80quad
	CMPQ pairs-8(SP), $0
	JE q80end
q80pair:
	ZEROQ80(Z16, Z17, Z18, Z19)
	XORQ BX, BX
	MOVQ nb+8(FP), CX
q80pairblock:
	PAIRQ80(SI, Z21, Z22, Z23)
	COL2Q80(R8, AX, Z16)
	COL2Q80(R9, DX, Z17)
	COL2Q80(R10, DI, Z18)
	COL2Q80(R11, R15, Z19)
	ADDQ $34, SI
	ADDQ $4, BX
	DECQ CX
	JNZ q80pairblock
	STORE2Q80(0, Z16, Y16)
	STORE2Q80(8, Z17, Y17)
	STORE2Q80(16, Z18, Y18)
	STORE2Q80(24, Z19, Y19)
q80end:
	VZEROUPPER
	RET

// K-quants. A super block of 256 values is unpacked once per row into
// Y16-Y23 (32 values each) with the sub-block scales spread as int16 into
// Y24-Y31; each column then takes VPMADDUBSW (pairs of unsigned quants
// times activations) and VPDPWSSD (times the scales, summed into int32)
// per 32 values, and the super block's float part as the one-column
// kernel does. Q8_K activations carry their own scale and block sums, so
// these kernels need no side data.

DATA colsHi2<>+0(SB)/4, $0x30303030
GLOBL colsHi2<>(SB), RODATA|NOPTR, $4

// The start of the Q6_K kernel: rows, then super blocks.
#define KPROLOGUE \
	MOVQ w+0(FP), SI; \
	MOVQ nrows+16(FP), R12; \
	MOVQ c+24(FP), R13; \
	VPBROADCASTD colsMask<>(SB), Y14; \
	TESTQ R12, R12; \
	JZ end; \
row: \
	LOADACTS; \
	MOVQ nb+8(FP), CX; \
	TESTQ CX, CX; \
	JZ store; \
super:

// KDOTS leaves Σ_j S_j·(W_j·activations) of one column in Y0.
#define KDOTS(A) \
	VPXOR Y0, Y0, Y0; \
	VPMADDUBSW 4(A), Y16, Y1; \
	VPDPWSSD Y24, Y1, Y0; \
	VPMADDUBSW 36(A), Y17, Y1; \
	VPDPWSSD Y25, Y1, Y0; \
	VPMADDUBSW 68(A), Y18, Y1; \
	VPDPWSSD Y26, Y1, Y0; \
	VPMADDUBSW 100(A), Y19, Y1; \
	VPDPWSSD Y27, Y1, Y0; \
	VPMADDUBSW 132(A), Y20, Y1; \
	VPDPWSSD Y28, Y1, Y0; \
	VPMADDUBSW 164(A), Y21, Y1; \
	VPDPWSSD Y29, Y1, Y0; \
	VPMADDUBSW 196(A), Y22, Y1; \
	VPDPWSSD Y30, Y1, Y0; \
	VPMADDUBSW 228(A), Y23, Y1; \
	VPDPWSSD Y31, Y1, Y0

// Q4_K in the order of llama.cpp's repacked gemm (dotQ4_KGemmG): per
// super block and column, the scaled integer dot of each pair of
// sub-blocks and the pair's minimum term, fused into two float
// accumulators pair by pair. Each column leaves its four pair dots and
// four pair minimums in one register, [dots | mins]; a 4x4 transpose
// within the 128-bit halves then gathers pair p of all four columns into
// one register, so one fused multiply-add per pair advances the four
// columns' sums (lanes 0-3) and their minimums (lanes 4-7) at once, each
// lane in exactly the one-column order.

// Q4KNIB splits the 32 bytes at off(SI) into low nibbles (sub-block 2g)
// and high nibbles (2g+1).
#define Q4KNIB(off, LO, HI) \
	VMOVDQU64 off(SI), LO; \
	VPSRLW $4, LO, HI; \
	VPANDD Y14, LO, LO; \
	VPANDD Y14, HI, HI

// COLQ4KG leaves column A's [pair dots | pair mins] as int32 in R. The
// pairs' sums of VPMADDWD/VPDPWSSD lanes are exact integers whatever the
// grouping; X7 holds the row's eight mins as int16.
#define COLQ4KG(A, R) \
	VPMADDUBSW 4(A), Y16, Y8; \
	VPMADDWD Y24, Y8, Y0; \
	VPMADDUBSW 36(A), Y17, Y8; \
	VPDPWSSD Y25, Y8, Y0; \
	VPMADDUBSW 68(A), Y18, Y8; \
	VPMADDWD Y26, Y8, Y1; \
	VPMADDUBSW 100(A), Y19, Y8; \
	VPDPWSSD Y27, Y8, Y1; \
	VPMADDUBSW 132(A), Y20, Y8; \
	VPMADDWD Y28, Y8, Y2; \
	VPMADDUBSW 164(A), Y21, Y8; \
	VPDPWSSD Y29, Y8, Y2; \
	VPMADDUBSW 196(A), Y22, Y8; \
	VPMADDWD Y30, Y8, Y3; \
	VPMADDUBSW 228(A), Y23, Y8; \
	VPDPWSSD Y31, Y8, Y3; \
	SUMS4; \
	VMOVDQU 260(A), Y9; \
	VEXTRACTI128 $1, Y9, X8; \
	VPHADDW X8, X9, X9; \
	VPMADDWD X7, X9, X9; \
	VINSERTI128 $1, X9, Y0, R

// func dotColsQ4_KVNNI(w *byte, nb, nrows int, c *cols4)
TEXT ·dotColsQ4_KVNNI(SB), NOSPLIT, $0-32
	MOVQ w+0(FP), SI
	MOVQ nrows+16(FP), R12
	MOVQ c+24(FP), R13
	VPBROADCASTD colsMask<>(SB), Y14
	TESTQ R12, R12
	JZ end
row:
	LOADACTS
	VXORPS Y12, Y12, Y12
	MOVQ nb+8(FP), CX
	TESTQ CX, CX
	JZ store
super:
	// The 6-bit scales and mins (see q4KScaleMin): scales to AX, mins
	// to BX, eight bytes each.
	MOVL 4(SI), AX
	MOVL 12(SI), DX
	MOVL AX, BX
	SHRL $6, BX
	ANDL $0x03030303, BX
	SHLL $4, BX
	MOVL DX, DI
	ANDL $0x0f0f0f0f, DI
	ORL BX, DI
	ANDL $0x3f3f3f3f, AX
	SHLQ $32, DI
	ORQ DI, AX
	MOVL 8(SI), BX
	MOVL BX, DI
	SHRL $6, DI
	ANDL $0x03030303, DI
	SHLL $4, DI
	SHRL $4, DX
	ANDL $0x0f0f0f0f, DX
	ORL DI, DX
	ANDL $0x3f3f3f3f, BX
	SHLQ $32, DX
	ORQ DX, BX
	VMOVQ AX, X6
	VPMOVZXBW X6, X6
	VINSERTI128 $1, X6, Y6, Y6
	VMOVQ BX, X7
	VPMOVZXBW X7, X7
	VPSHUFB ·dotShufW32+0(SB), Y6, Y24
	VPSHUFB ·dotShufW32+32(SB), Y6, Y25
	VPSHUFB ·dotShufW32+64(SB), Y6, Y26
	VPSHUFB ·dotShufW32+96(SB), Y6, Y27
	VPSHUFB ·dotShufW32+128(SB), Y6, Y28
	VPSHUFB ·dotShufW32+160(SB), Y6, Y29
	VPSHUFB ·dotShufW32+192(SB), Y6, Y30
	VPSHUFB ·dotShufW32+224(SB), Y6, Y31
	Q4KNIB(16, Y16, Y17)
	Q4KNIB(48, Y18, Y19)
	Q4KNIB(80, Y20, Y21)
	Q4KNIB(112, Y22, Y23)
	// Y5 = [d·yd_c for c = 0..3 | dmin·yd_c], each one product as in
	// the one-column kernel.
	VCVTPH2PS (SI), X4
	VBROADCASTSS X4, X5
	VMOVSHDUP X4, X4
	VBROADCASTSS X4, X4
	VINSERTF128 $1, X4, Y5, Y5
	VMOVSS (R8), X4
	VINSERTPS $0x10, (R9), X4, X4
	VINSERTPS $0x20, (R10), X4, X4
	VINSERTPS $0x30, (R11), X4, X4
	VINSERTF128 $1, X4, Y4, Y4
	VMULPS Y4, Y5, Y5
	COLQ4KG(R8, Y10)
	COLQ4KG(R9, Y11)
	COLQ4KG(R10, Y13)
	COLQ4KG(R11, Y15)
	// Transpose: Y8..Y11 hold pair 0..3 of columns 0..3 (and their mins
	// in the high half).
	VPUNPCKLDQ Y11, Y10, Y0
	VPUNPCKHDQ Y11, Y10, Y1
	VPUNPCKLDQ Y15, Y13, Y2
	VPUNPCKHDQ Y15, Y13, Y3
	VPUNPCKLQDQ Y2, Y0, Y8
	VPUNPCKHQDQ Y2, Y0, Y9
	VPUNPCKLQDQ Y3, Y1, Y10
	VPUNPCKHQDQ Y3, Y1, Y11
	VCVTDQ2PS Y8, Y8
	VCVTDQ2PS Y9, Y9
	VCVTDQ2PS Y10, Y10
	VCVTDQ2PS Y11, Y11
	VFMADD231PS Y5, Y8, Y12
	VFMADD231PS Y5, Y9, Y12
	VFMADD231PS Y5, Y10, Y12
	VFMADD231PS Y5, Y11, Y12
	ADVACTS(144, 292)
	DECQ CX
	JNZ super
store:
	// acc - accMin per column
	VEXTRACTF128 $1, Y12, X0
	VSUBPS X0, X12, X0
	VMOVSHDUP X0, X1
	VMOVHLPS X0, X0, X2
	VPSHUFD $0xFF, X0, X3
	STORE(0, X0)
	STORE(8, X1)
	STORE(16, X2)
	STORE(24, X3)
	DECQ R12
	JNZ row
end:
	VZEROUPPER
	RET

// Q6_K in ggml_vec_dot_q6_K_q8_K's order (dotQ6_KG): quants are stored
// biased by 32, so the block's eight int32 lanes are Σ s·u·a - 32·s_j·
// bsum_j, lane i holding values 4i..4i+3 of every 32 (as VPDPWSSD leaves
// them) and sub-blocks 2i and 2i+1 of the offset; Y6 holds the sixteen
// scales as int16 and X4 the row's d. Each column keeps its eight float
// lanes in ACC, advanced by one fused multiply-add by d·yd per super
// block, and FOLD8 folds them at the row's end.
#define COLQ6K(A, ACC) \
	KDOTS(A); \
	VPMADDWD 260(A), Y6, Y2; \
	VPSLLD $5, Y2, Y2; \
	VPSUBD Y2, Y0, Y0; \
	VCVTDQ2PS Y0, Y0; \
	VMULSS (A), X4, X5; \
	VBROADCASTSS X5, Y5; \
	VFMADD231PS Y5, Y0, ACC

// Q6KLO and Q6KHI build 32 six-bit values in W: the low or high nibbles
// of SRC, with two bits of the qh bytes in Y3 shifted to bits 4-5 (Y12
// holds 0x30 bytes, Y8 is scratch).
#define Q6KLO(SRC, W, SHL) \
	VPANDD Y14, SRC, W; \
	VPSLLW $SHL, Y3, Y8; \
	VPANDD Y12, Y8, Y8; \
	VPORD Y8, W, W

#define Q6KHI(SRC, W, SHR) \
	VPSRLW $4, SRC, W; \
	VPANDD Y14, W, W; \
	VPSRLW $SHR, Y3, Y8; \
	VPANDD Y12, Y8, Y8; \
	VPORD Y8, W, W

// func dotColsQ6_KVNNI(w *byte, nb, nrows int, c *cols4)
TEXT ·dotColsQ6_KVNNI(SB), NOSPLIT, $0-32
	VPBROADCASTD colsHi2<>(SB), Y12
	KPROLOGUE
	VPMOVSXBW 192(SI), Y6
	VPERMQ $0x44, Y6, Y7
	VPERMQ $0xEE, Y6, Y5
	VPSHUFB ·dotShufW16+0(SB), Y7, Y24
	VPSHUFB ·dotShufW16+32(SB), Y7, Y25
	VPSHUFB ·dotShufW16+64(SB), Y7, Y26
	VPSHUFB ·dotShufW16+96(SB), Y7, Y27
	VPSHUFB ·dotShufW16+0(SB), Y5, Y28
	VPSHUFB ·dotShufW16+32(SB), Y5, Y29
	VPSHUFB ·dotShufW16+64(SB), Y5, Y30
	VPSHUFB ·dotShufW16+96(SB), Y5, Y31
	VMOVDQU 0(SI), Y1
	VMOVDQU 32(SI), Y2
	VMOVDQU 128(SI), Y3
	Q6KLO(Y1, Y16, 4)
	Q6KLO(Y2, Y17, 2)
	Q6KHI(Y1, Y18, 0)
	Q6KHI(Y2, Y19, 2)
	VMOVDQU 64(SI), Y1
	VMOVDQU 96(SI), Y2
	VMOVDQU 160(SI), Y3
	Q6KLO(Y1, Y20, 4)
	Q6KLO(Y2, Y21, 2)
	Q6KHI(Y1, Y22, 0)
	Q6KHI(Y2, Y23, 2)
	MOVWLZX 208(SI), AX
	VMOVD AX, X4
	VCVTPH2PS X4, X4
	COLQ6K(R8, Y10)
	COLQ6K(R9, Y11)
	COLQ6K(R10, Y13)
	COLQ6K(R11, Y15)
	ADVACTS(210, 292)
	DECQ CX
	JNZ super
store:
	FOLD8(Y10, X10)
	STORE(0, X0)
	FOLD8(Y11, X11)
	STORE(8, X0)
	FOLD8(Y13, X13)
	STORE(16, X0)
	FOLD8(Y15, X15)
	STORE(24, X0)
	DECQ R12
	JNZ row
end:
	VZEROUPPER
	RET

// func dotColsQ8_0x4VNNI(w *byte, nb, nrows int, c *cols4)
// dotColsQ8_0VNNI's products over interleaved Q8_0 (q8_0_interleaved.go),
// a group of four rows per pass (its block: the rows' scales, then their
// quants; 136 bytes), on 256-bit registers, one row a register: Zen 4
// runs 512-bit instructions as two 256-bit halves, and with the per-row
// bias kept in a register and the scales read by embedded broadcast this
// loop needs fewer of them than two rows a 512-bit register
// (bench/JOURNAL.md has the trial).
// The sixteen (row, column) accumulators are in Y16-Y31, the four
// columns' u in Y0-Y3, a row's weights in Y4 and its -128·Σw in Y5 (Y14
// zero, Y15 0x80 bytes). Per block the sixteen dw·da are four multiplies
// kept on the stack, each fused multiply-add reading its own by an
// embedded broadcast. nrows is a multiple of four, nb positive.

// YCOLQ84 advances the accumulator of row r and column c (u in U) by one
// block, T scratch.
#define YCOLQ84(r, c, U, T, ACC) \
	VMOVDQA Y5, T; \
	VPDPBUSD Y4, U, T; \
	VCVTDQ2PS T, T; \
	VFMADD231PS.BCST s-(64-16*c-4*r)(SP), T, ACC

#define YROWQ84(r, A0, A1, A2, A3) \
	VMOVDQU (8+32*r)(SI), Y4; \
	VPXOR Y5, Y5, Y5; \
	VPDPBUSD Y4, Y15, Y5; \
	VPSUBD Y5, Y14, Y5; \
	YCOLQ84(r, 0, Y0, Y6, A0); \
	YCOLQ84(r, 1, Y1, Y7, A1); \
	YCOLQ84(r, 2, Y2, Y10, A2); \
	YCOLQ84(r, 3, Y3, Y11, A3)

// YSCALEQ84 puts the four rows' dw (X8) times column c's da (at X) on the
// stack.
#define YSCALEQ84(c, X) \
	VBROADCASTSS (X)(BX*1), X9; \
	VMULPS X9, X8, X9; \
	VMOVUPS X9, s-(64-16*c)(SP)

// YSTOREQ84 folds the four rows of column c (off: c·8) into its outputs.
#define YSTOREQ84(off, A0, A1, A2, A3) \
	MOVQ OUT0+off(R13), CX; \
	VMOVAPS A0, Y2; \
	FOLD8(Y2, X2); \
	VMOVSS X0, 0(CX); \
	VMOVAPS A1, Y2; \
	FOLD8(Y2, X2); \
	VMOVSS X0, 4(CX); \
	VMOVAPS A2, Y2; \
	FOLD8(Y2, X2); \
	VMOVSS X0, 8(CX); \
	VMOVAPS A3, Y2; \
	FOLD8(Y2, X2); \
	VMOVSS X0, 12(CX); \
	ADDQ $16, CX; \
	MOVQ CX, OUT0+off(R13)

TEXT ·dotColsQ8_0x4VNNI(SB), NOSPLIT, $72-32
	MOVQ w+0(FP), SI
	MOVQ nrows+16(FP), CX
	SHRQ $2, CX
	JZ yq84end
	MOVQ CX, groups-72(SP)
	Q80SIDE
	VPBROADCASTD colsBias<>(SB), Y15
	VPXOR Y14, Y14, Y14
yq84group:
	VPXORD Y16, Y16, Y16
	VPXORD Y17, Y17, Y17
	VPXORD Y18, Y18, Y18
	VPXORD Y19, Y19, Y19
	VPXORD Y20, Y20, Y20
	VPXORD Y21, Y21, Y21
	VPXORD Y22, Y22, Y22
	VPXORD Y23, Y23, Y23
	VPXORD Y24, Y24, Y24
	VPXORD Y25, Y25, Y25
	VPXORD Y26, Y26, Y26
	VPXORD Y27, Y27, Y27
	VPXORD Y28, Y28, Y28
	VPXORD Y29, Y29, Y29
	VPXORD Y30, Y30, Y30
	VPXORD Y31, Y31, Y31
	XORQ BX, BX
	MOVQ nb+8(FP), CX
yq84block:
	VMOVDQU (R8)(BX*8), Y0
	VMOVDQU (R9)(BX*8), Y1
	VMOVDQU (R10)(BX*8), Y2
	VMOVDQU (R11)(BX*8), Y3
	VCVTPH2PS (SI), X8
	YSCALEQ84(0, AX)
	YSCALEQ84(1, DX)
	YSCALEQ84(2, DI)
	YSCALEQ84(3, R15)
	YROWQ84(0, Y16, Y17, Y18, Y19)
	YROWQ84(1, Y20, Y21, Y22, Y23)
	YROWQ84(2, Y24, Y25, Y26, Y27)
	YROWQ84(3, Y28, Y29, Y30, Y31)
	ADDQ $136, SI
	ADDQ $4, BX
	DECQ CX
	JNZ yq84block
	YSTOREQ84(0, Y16, Y20, Y24, Y28)
	YSTOREQ84(8, Y17, Y21, Y25, Y29)
	YSTOREQ84(16, Y18, Y22, Y26, Y30)
	YSTOREQ84(24, Y19, Y23, Y27, Y31)
	DECQ groups-72(SP)
	JNZ yq84group
yq84end:
	VZEROUPPER
	RET
