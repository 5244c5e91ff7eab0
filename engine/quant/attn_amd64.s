// Attention's dots of a query with many cache rows, and the fold of the
// value sums' 64 lanes, on AVX2 in the orders of ggml_order.go: every
// lane's chain of fused multiply-adds and every addition of a fold is the
// Go code's, so the results agree bit for bit. Cache rows are F16, widened
// on load (exact).

#include "textflag.h"
#include "fold_amd64.h"

// func scoresF16VecAVX2(q *float32, k *byte, stride, d, n int, out *float32)
//
// out[j] = the whole 64-value steps of row j (d values at k+j·stride)
// times q, in four 16-lane accumulators folded 0+2, 1+3, then 0+1 and
// reduced with SumLanes16 (vecSteps' order); d is a multiple of 64.
// Y0-Y7 the accumulators (two registers a 16-lane one), Y8-Y11 the row.
TEXT ·scoresF16VecAVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), DX
	MOVQ k+8(FP), SI
	MOVQ stride+16(FP), R8
	MOVQ d+24(FP), R9
	SHRQ $6, R9
	MOVQ n+32(FP), R10
	MOVQ out+40(FP), DI
row64:
	MOVQ SI, AX
	MOVQ DX, BX
	MOVQ R9, CX
	ZERO64
step64:
	VCVTPH2PS 0(AX), Y8
	VCVTPH2PS 16(AX), Y9
	VCVTPH2PS 32(AX), Y10
	VCVTPH2PS 48(AX), Y11
	VFMADD231PS 0(BX), Y8, Y0
	VFMADD231PS 32(BX), Y9, Y1
	VFMADD231PS 64(BX), Y10, Y2
	VFMADD231PS 96(BX), Y11, Y3
	VCVTPH2PS 64(AX), Y8
	VCVTPH2PS 80(AX), Y9
	VCVTPH2PS 96(AX), Y10
	VCVTPH2PS 112(AX), Y11
	VFMADD231PS 128(BX), Y8, Y4
	VFMADD231PS 160(BX), Y9, Y5
	VFMADD231PS 192(BX), Y10, Y6
	VFMADD231PS 224(BX), Y11, Y7
	ADDQ $128, AX
	ADDQ $256, BX
	DECQ CX
	JNZ step64
	FOLD64
	VMOVSS X0, (DI)
	ADDQ R8, SI
	ADDQ $4, DI
	DECQ R10
	JNZ row64
	VZEROUPPER
	RET

// func scoresF16GemmAVX2(q *float32, k *byte, stride, d, n int, out *float32)
//
// out[j] = row j times q in one 16-lane accumulator, reduced with
// SumLanes16 (DotGemm16H's order); d is a multiple of 16.
TEXT ·scoresF16GemmAVX2(SB), NOSPLIT, $0-48
	MOVQ q+0(FP), DX
	MOVQ k+8(FP), SI
	MOVQ stride+16(FP), R8
	MOVQ d+24(FP), R9
	SHRQ $4, R9
	MOVQ n+32(FP), R10
	MOVQ out+40(FP), DI
row16:
	MOVQ SI, AX
	MOVQ DX, BX
	MOVQ R9, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
step16:
	VCVTPH2PS 0(AX), Y8
	VCVTPH2PS 16(AX), Y9
	VFMADD231PS 0(BX), Y8, Y0
	VFMADD231PS 32(BX), Y9, Y1
	ADDQ $32, AX
	ADDQ $64, BX
	DECQ CX
	JNZ step16
	SUMLANES16
	VMOVSS X0, (DI)
	ADDQ R8, SI
	ADDQ $4, DI
	DECQ R10
	JNZ row16
	VZEROUPPER
	RET

// func foldLanes64ColsAVX2(y, a *float32, cols, d int)
//
// y[i] = FoldLanes64 of column i < cols (a multiple of 8) of a, 64 rows of
// d values, eight columns at a time: row l and rows l+16, l+32, l+48 are lane
// l of the four accumulators. Per l < 16: b_l = (a_l + a_l+32) +
// (a_l+16 + a_l+48); then t_i = b_i+8 + b_i, u_i = t_i+4 + t_i and
// (u0 + u2) + (u1 + u3). R8 = d·4 bytes, a row's size.
// B(l, R) leaves b_l of the current eight columns in R (Y14, Y15 scratch).
#define B(l, R) \
	IMUL3Q $(l), R8, AX; \
	VMOVUPS (SI)(AX*1), R; \
	IMUL3Q $(l)+32, R8, AX; \
	VADDPS (SI)(AX*1), R, R; \
	IMUL3Q $(l)+16, R8, AX; \
	VMOVUPS (SI)(AX*1), Y14; \
	IMUL3Q $(l)+48, R8, AX; \
	VADDPS (SI)(AX*1), Y14, Y14; \
	VADDPS Y14, R, R

// T(i, R) leaves t_i = b_i+8 + b_i in R (Y13 scratch).
#define T(i, R) \
	B(i, R); \
	B((i)+8, Y13); \
	VADDPS Y13, R, R

TEXT ·foldLanes64ColsAVX2(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ cols+16(FP), CX
	MOVQ d+24(FP), R8
	SHLQ $2, R8
	SHRQ $3, CX
cols8:
	T(0, Y0)
	T(4, Y4)
	VADDPS Y4, Y0, Y0
	T(1, Y1)
	T(5, Y5)
	VADDPS Y5, Y1, Y1
	T(2, Y2)
	T(6, Y6)
	VADDPS Y6, Y2, Y2
	T(3, Y3)
	T(7, Y7)
	VADDPS Y7, Y3, Y3
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	VADDPS Y1, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ cols8
	VZEROUPPER
	RET

// The byte offsets of eight rows from the first, in multiples of the
// stride (scaled at run time), and the mask of a dword's low word.
DATA tailRows<>+0(SB)/4, $0
DATA tailRows<>+4(SB)/4, $1
DATA tailRows<>+8(SB)/4, $2
DATA tailRows<>+12(SB)/4, $3
DATA tailRows<>+16(SB)/4, $4
DATA tailRows<>+20(SB)/4, $5
DATA tailRows<>+24(SB)/4, $6
DATA tailRows<>+28(SB)/4, $7
GLOBL tailRows<>(SB), RODATA|NOPTR, $32

// TAILTERM adds value i of eight rows times q[i] into the float64 sums
// Y8 (rows 0-3) and Y9 (rows 4-7): the eight halves, gathered as the
// dwords at byte off of each row, are the words at shift (0: low, 16:
// high), widened (exact), multiplied by q[i] in float32, then widened
// and added, as the Go loop does it one row at a time.
#define TAILTERM(off, SHIFT) \
	VPCMPEQD Y1, Y1, Y1; \
	VPGATHERDD Y1, off(AX)(Y13*1), Y2; \
	SHIFT; \
	VEXTRACTI128 $1, Y2, X3; \
	VPACKUSDW X3, X2, X2; \
	VCVTPH2PS X2, Y2; \
	VBROADCASTSS (BX), Y3; \
	VMULPS Y3, Y2, Y2; \
	VCVTPS2PD X2, Y4; \
	VADDPD Y4, Y8, Y8; \
	VEXTRACTF128 $1, Y2, X2; \
	VCVTPS2PD X2, Y4; \
	VADDPD Y4, Y9, Y9

#define LOWWORD VPAND Y14, Y2, Y2
#define HIGHWORD VPSRLD $16, Y2, Y2

// func scoresF16TailAVX2(q *float32, k *byte, stride, i0, d, n int, out *float32)
//
// For eight rows at a time (n a multiple of 8): out[j] += values i0..d-1
// of row j times q, each product rounded to float32 and summed in float64
// onto out[j] one by one (ScoresF16's tail loop), then rounded once. The
// gathers read each value as the high word of the dword before it (the
// first value of a row, i0 = 0, as the low word of its own), so no read
// passes a row's last value. d > i0, d >= 2, 8·stride < 2^31.
TEXT ·scoresF16TailAVX2(SB), NOSPLIT, $0-56
	MOVQ k+8(FP), SI
	MOVQ stride+16(FP), R8
	MOVQ n+40(FP), R10
	SHRQ $3, R10
	JZ tailend
	MOVQ out+48(FP), DI
	VMOVDQU tailRows<>(SB), Y13
	VPBROADCASTD stride+16(FP), Y0
	VPMULLD Y0, Y13, Y13
	VPCMPEQD Y14, Y14, Y14
	VPSRLD $16, Y14, Y14
tailgroup:
	VCVTPS2PD (DI), Y8
	VCVTPS2PD 16(DI), Y9
	MOVQ i0+24(FP), CX
	MOVQ q+0(FP), BX
	LEAQ (BX)(CX*4), BX
	LEAQ -2(SI)(CX*2), AX
	TESTQ CX, CX
	JNZ tailvalues
	TAILTERM(2, LOWWORD)
	ADDQ $4, BX
	ADDQ $2, AX
	INCQ CX
tailvalues:
	TAILTERM(0, HIGHWORD)
	ADDQ $4, BX
	ADDQ $2, AX
	INCQ CX
	CMPQ CX, d+32(FP)
	JB tailvalues
	VCVTPD2PSY Y8, X8
	VCVTPD2PSY Y9, X9
	VMOVUPS X8, (DI)
	VMOVUPS X9, 16(DI)
	ADDQ $32, DI
	LEAQ (SI)(R8*8), SI
	DECQ R10
	JNZ tailgroup
tailend:
	VZEROUPPER
	RET
