// Interleaved Q8_0 rows (q8_0_interleaved.go) against a Q8_0 activation,
// a group of four rows per pass, each row in ggml_vec_dot_q8_0_q8_0's
// order: per block, the 32 products summed by fours into eight int32
// lanes (exact), converted, and fused into eight float lanes with the
// block's dw·da; the lanes folded at the end as hsum_float_8. A group's
// block is its four f16 scales at SI, then row k's quants at SI+8+32k;
// the group moves on 136 bytes a block.

#include "textflag.h"
#include "fold_amd64.h"

// Q8ROW advances ACC by the block of the group's row k, the activation
// block being in Y0 and the four rows' dw·da at scales-16(SP). INTDOT
// leaves the block's eight int32 lane sums in register SUMS from |w| (Y3)
// and a signed by w (Y4).
#define Q8ROW(k, ACC, INTDOT, SUMS) \
	VMOVDQU (8+32*k)(SI), Y2; \
	VPSIGNB Y2, Y2, Y3; \
	VPSIGNB Y2, Y0, Y4; \
	INTDOT; \
	VCVTDQ2PS SUMS, Y3; \
	VBROADCASTSS scales-(16-4*k)(SP), Y5; \
	VFMADD231PS Y3, Y5, ACC

// AVX2: unsigned by signed bytes to int16 pairs (no saturation: |a| is at
// most 127 in a quantized activation, so a pair is at most 2·128·127),
// then int16 pairs to int32 (Y15: int16 ones).
#define INTAVX2 \
	VPMADDUBSW Y4, Y3, Y3; \
	VPMADDWD Y15, Y3, Y3

// AVX-512 VNNI on 256-bit registers: four products into one int32 in one
// instruction.
#define INTVNNI \
	VPXOR Y6, Y6, Y6; \
	VPDPBUSD Y4, Y3, Y6

// STOREROW folds ACC (low half X) into out and advances out.
#define STOREROW(ACC, X) \
	FOLD8(ACC, X); \
	VMOVSS X0, (R13); \
	ADDQ $4, R13

// SI walks the groups' blocks, DI the activation, CX the blocks left, R12
// the groups left, R13 out. Per block the four products dw_k·da (float32,
// as the one-row kernel rounds them) are made at once and kept on the
// stack for the rows' broadcasts.
#define GROUPS(INTDOT, SUMS) \
	MOVQ w+0(FP), SI; \
	MOVQ nrows+24(FP), R12; \
	SHRQ $2, R12; \
	JZ end; \
	MOVQ out+32(FP), R13; \
	VPCMPEQW Y15, Y15, Y15; \
	VPSRLW $15, Y15, Y15; \
group: \
	MOVQ a+8(FP), DI; \
	MOVQ nb+16(FP), CX; \
	VXORPS Y8, Y8, Y8; \
	VXORPS Y9, Y9, Y9; \
	VXORPS Y10, Y10, Y10; \
	VXORPS Y11, Y11, Y11; \
block: \
	VMOVDQU 2(DI), Y0; \
	VPBROADCASTW (DI), X1; \
	VCVTPH2PS X1, X1; \
	VCVTPH2PS (SI), X2; \
	VMULPS X1, X2, X2; \
	VMOVUPS X2, scales-16(SP); \
	Q8ROW(0, Y8, INTDOT, SUMS); \
	Q8ROW(1, Y9, INTDOT, SUMS); \
	Q8ROW(2, Y10, INTDOT, SUMS); \
	Q8ROW(3, Y11, INTDOT, SUMS); \
	ADDQ $34, DI; \
	ADDQ $136, SI; \
	DECQ CX; \
	JNZ block; \
	STOREROW(Y8, X8); \
	STOREROW(Y9, X9); \
	STOREROW(Y10, X10); \
	STOREROW(Y11, X11); \
	DECQ R12; \
	JNZ group; \
end: \
	VZEROUPPER; \
	RET

// func dotQ8_0x4AVX2(w, a *byte, nb, nrows int, out *float32)
// nrows is a multiple of four, nb positive.
TEXT ·dotQ8_0x4AVX2(SB), NOSPLIT, $16-40
	GROUPS(INTAVX2, Y3)

// func dotQ8_0x4VNNI(w, a *byte, nb, nrows int, out *float32)
// nrows is a multiple of four, nb positive.
TEXT ·dotQ8_0x4VNNI(SB), NOSPLIT, $16-40
	GROUPS(INTVNNI, Y6)

// Two columns at once with AVX2 (no VNNI). The activation is the sign
// source and its absolute values the unsigned operand: VPMADDUBSW takes
// |a| (from ColAux, made once per column) against w·sign(a), whose
// products are the rows kernel's |w|·(a·sign(w)) and whose int16 pairs
// are as far from saturating, so every int32 lane is the same. No
// weight's absolute value is taken, one instruction a row and block fewer
// than the rows kernel. This needs w > -128: negating -128 wraps, so a
// matrix holding a -128 quant is never handed to this kernel
// (ColsQ8_0x4). The block's scales come from the side data as f32; the
// eight dw·da (four rows by two columns) are two multiplies kept on the
// stack for the rows' broadcasts.

// C2ROW advances row k's accumulators of columns 0 and 1: |a| in Y0 and
// Y1, a in Y3 and Y7, int16 ones in Y6.
#define C2ROW(k, ACC0, ACC1) \
	VMOVDQU (8+32*k)(SI), Y2; \
	VPSIGNB Y3, Y2, Y4; \
	VPMADDUBSW Y4, Y0, Y4; \
	VPMADDWD Y6, Y4, Y4; \
	VCVTDQ2PS Y4, Y4; \
	VBROADCASTSS s-(32-4*k)(SP), Y5; \
	VFMADD231PS Y4, Y5, ACC0; \
	VPSIGNB Y7, Y2, Y4; \
	VPMADDUBSW Y4, Y1, Y4; \
	VPMADDWD Y6, Y4, Y4; \
	VCVTDQ2PS Y4, Y4; \
	VBROADCASTSS s-(16-4*k)(SP), Y5; \
	VFMADD231PS Y4, Y5, ACC1

// C2STORE folds ACC into the float at off(O).
#define C2STORE(ACC, X, O, off) \
	FOLD8(ACC, X); \
	VMOVSS X0, off(O)

// func dotCols2Q8_0x4AVX2(w, a0, a1, x0, x1 *byte, nb, nrows int, o0, o1 *float32)
// x0 and x1 are the columns' side data (ColAux: |a| for every block, then
// every block's scale as f32); nrows is a multiple of four, nb positive.
// DI and DX walk the activations, R8 and R9 the |a|, R10 and R11 the
// scales.
TEXT ·dotCols2Q8_0x4AVX2(SB), NOSPLIT, $32-72
	MOVQ w+0(FP), SI
	MOVQ nrows+48(FP), R12
	SHRQ $2, R12
	JZ c2end
	MOVQ o0+56(FP), R13
	MOVQ o1+64(FP), R14
	VPCMPEQW Y6, Y6, Y6
	VPSRLW $15, Y6, Y6
c2group:
	MOVQ a0+8(FP), DI
	MOVQ a1+16(FP), DX
	MOVQ x0+24(FP), R8
	MOVQ x1+32(FP), R9
	MOVQ nb+40(FP), CX
	MOVQ CX, R10
	SHLQ $5, R10
	LEAQ (R9)(R10*1), R11
	ADDQ R8, R10
	VXORPS Y8, Y8, Y8
	VXORPS Y9, Y9, Y9
	VXORPS Y10, Y10, Y10
	VXORPS Y11, Y11, Y11
	VXORPS Y12, Y12, Y12
	VXORPS Y13, Y13, Y13
	VXORPS Y14, Y14, Y14
	VXORPS Y15, Y15, Y15
c2block:
	VMOVDQU (R8), Y0
	VMOVDQU (R9), Y1
	VMOVDQU 2(DI), Y3
	VMOVDQU 2(DX), Y7
	VCVTPH2PS (SI), X2
	VBROADCASTSS (R10), X5
	VMULPS X5, X2, X5
	VBROADCASTSS (R11), X4
	VMULPS X4, X2, X4
	VMOVUPS X5, s-32(SP)
	VMOVUPS X4, s-16(SP)
	C2ROW(0, Y8, Y9)
	C2ROW(1, Y10, Y11)
	C2ROW(2, Y12, Y13)
	C2ROW(3, Y14, Y15)
	ADDQ $34, DI
	ADDQ $34, DX
	ADDQ $32, R8
	ADDQ $32, R9
	ADDQ $4, R10
	ADDQ $4, R11
	ADDQ $136, SI
	DECQ CX
	JNZ c2block
	C2STORE(Y8, X8, R13, 0)
	C2STORE(Y9, X9, R14, 0)
	C2STORE(Y10, X10, R13, 4)
	C2STORE(Y11, X11, R14, 4)
	C2STORE(Y12, X12, R13, 8)
	C2STORE(Y13, X13, R14, 8)
	C2STORE(Y14, X14, R13, 12)
	C2STORE(Y15, X15, R14, 12)
	ADDQ $16, R13
	ADDQ $16, R14
	DECQ R12
	JNZ c2group
c2end:
	VZEROUPPER
	RET
