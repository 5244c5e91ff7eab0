// AVX2 dot kernels for quantized weights against 8-bit activations.
// Each block's integer dot is computed with vpmaddubsw/vpmaddwd (exact),
// reduced to one int32, then scaled and accumulated in scalar SSE in the
// same order as the pure-Go kernels, so results are bit-identical.

#include "textflag.h"
#include "fold_amd64.h"

// Byte constants, broadcast with VPBROADCASTD.
DATA dotK<>+0(SB)/4, $0x0f0f0f0f
DATA dotK<>+4(SB)/4, $0x08080808
DATA dotK<>+8(SB)/4, $0xf0f0f0f0
DATA dotK<>+12(SB)/4, $0x10101010
DATA dotK<>+16(SB)/4, $0x30303030
DATA dotK<>+20(SB)/4, $0x03030303
DATA dotK<>+24(SB)/4, $0x01010101
DATA dotK<>+28(SB)/4, $0x02020202
DATA dotK<>+32(SB)/4, $0x20202020
GLOBL dotK<>(SB), RODATA|NOPTR, $36

// Per-dword shift counts: the high 128-bit lane takes the high nibbles.
DATA dotShift4<>+0(SB)/8, $0
DATA dotShift4<>+8(SB)/8, $0
DATA dotShift4<>+16(SB)/8, $0x0000000400000004
DATA dotShift4<>+24(SB)/8, $0x0000000400000004
GLOBL dotShift4<>(SB), RODATA|NOPTR, $32

// Spreading the 32 qh bits of a Q5 block to 32 bytes: byte i takes qh byte
// i/8, then OR with a pattern that leaves 0xff exactly when bit i%8 is set.
DATA dotQhShuf<>+0(SB)/8, $0x0000000000000000
DATA dotQhShuf<>+8(SB)/8, $0x0101010101010101
DATA dotQhShuf<>+16(SB)/8, $0x0202020202020202
DATA dotQhShuf<>+24(SB)/8, $0x0303030303030303
GLOBL dotQhShuf<>(SB), RODATA|NOPTR, $32
DATA dotBits<>+0(SB)/8, $0x7fbfdfeff7fbfdfe
DATA dotBits<>+8(SB)/8, $0x7fbfdfeff7fbfdfe
DATA dotBits<>+16(SB)/8, $0x7fbfdfeff7fbfdfe
DATA dotBits<>+24(SB)/8, $0x7fbfdfeff7fbfdfe
GLOBL dotBits<>(SB), RODATA|NOPTR, $32

// HSUMD leaves the sum of the eight int32 of Y (whose low half is X) in
// lane 0 of X; T is scratch.
// ROWSTART begins a row: activation pointer, block count, zero sum.
#define ROWSTART \
	MOVQ a+8(FP), DI; \
	MOVQ nb+16(FP), CX; \
	VXORPS X0, X0, X0

// ROWEND stores the row's sum and moves on to the next row.
#define ROWEND \
	VMOVSS X0, (R13); \
	ADDQ $4, R13; \
	DECQ R12; \
	JNZ rows; \
end: \
	VZEROUPPER; \
	RET

#define HSUMD(Y, X, T) \
	VEXTRACTI128 $1, Y, T; \
	VPADDD T, X, X; \
	VPSHUFD $0x4E, X, T; \
	VPADDD T, X, X; \
	VPSHUFD $0xB1, X, T; \
	VPADDD T, X, X

// NIBBLES expands the 16 bytes at qoff(SI) to 32 values 0..15 in Y1: low
// nibbles (values 0..15) in the low lane, high nibbles in the high lane.
#define NIBBLES(qoff) \
	VBROADCASTI128 qoff(SI), Y1; \
	VPSRLVD Y12, Y1, Y1; \
	VPAND Y14, Y1, Y1

// QHBITS leaves 0xff in byte i of Y5 where bit i of the u32 at off(SI) is set.
#define QHBITS(off) \
	VPBROADCASTD off(SI), Y5; \
	VPSHUFB dotQhShuf<>(SB), Y5, Y5; \
	VPOR dotBits<>(SB), Y5, Y5; \
	VPCMPEQB Y11, Y5, Y5

// Every kernel computes nrows consecutive rows: SI walks the weights
// (a row's block loop leaves it at the next row), DI restarts at the
// activation for each row, R12 counts rows left and R13 points at out.
#define PROLOGUE \
	MOVQ w+0(FP), SI; \
	MOVQ nrows+24(FP), R12; \
	MOVQ out+32(FP), R13; \
	VPCMPEQW Y15, Y15, Y15; \
	VPSRLW $15, Y15, Y15; \
	VPBROADCASTD dotK<>+0(SB), Y14; \
	VMOVDQU dotShift4<>(SB), Y12; \
	VPCMPEQB Y11, Y11, Y11

// func dotQ4_0AVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ4_0AVX2(SB), NOSPLIT, $0-40
	PROLOGUE
	VPBROADCASTD dotK<>+4(SB), Y13
	TESTQ R12, R12
	JZ end
rows:
	ROWSTART
	VXORPS X9, X9, X9
	MOVQ CX, DX
	SHRQ $2, DX
	JZ fold
loop4:
	NIBBLES(2)
	VPSUBB Y13, Y1, Y1
	VMOVDQU 2(DI), Y2
	VPSIGNB Y1, Y1, Y3
	VPSIGNB Y1, Y2, Y2
	VPMADDUBSW Y2, Y3, Y3
	VPMADDWD Y15, Y3, Y3
	NIBBLES(20)
	VPSUBB Y13, Y1, Y1
	VMOVDQU 36(DI), Y2
	VPSIGNB Y1, Y1, Y6
	VPSIGNB Y1, Y2, Y2
	VPMADDUBSW Y2, Y6, Y6
	VPMADDWD Y15, Y6, Y6
	NIBBLES(38)
	VPSUBB Y13, Y1, Y1
	VMOVDQU 70(DI), Y2
	VPSIGNB Y1, Y1, Y7
	VPSIGNB Y1, Y2, Y2
	VPMADDUBSW Y2, Y7, Y7
	VPMADDWD Y15, Y7, Y7
	NIBBLES(56)
	VPSUBB Y13, Y1, Y1
	VMOVDQU 104(DI), Y2
	VPSIGNB Y1, Y1, Y8
	VPSIGNB Y1, Y2, Y2
	VPMADDUBSW Y2, Y8, Y8
	VPMADDWD Y15, Y8, Y8
	// Four blocks' int32 sums into X3, in block order.
	VPHADDD Y6, Y3, Y3
	VPHADDD Y8, Y7, Y7
	VPHADDD Y7, Y3, Y3
	VEXTRACTI128 $1, Y3, X6
	VPADDD X6, X3, X3
	VCVTDQ2PS X3, X3
	MOVWLZX 0(SI), AX
	MOVWLZX 18(SI), R10
	SHLL $16, R10
	ORL R10, AX
	MOVWLZX 36(SI), R10
	MOVWLZX 54(SI), R11
	SHLL $16, R11
	ORL R11, R10
	SHLQ $32, R10
	ORQ R10, AX
	MOVWLZX 0(DI), BX
	MOVWLZX 34(DI), R10
	SHLL $16, R10
	ORL R10, BX
	MOVWLZX 68(DI), R10
	MOVWLZX 102(DI), R11
	SHLL $16, R11
	ORL R11, R10
	SHLQ $32, R10
	ORQ R10, BX
	VMOVQ AX, X4
	VCVTPH2PS X4, X4
	VMOVQ BX, X5
	VCVTPH2PS X5, X5
	VMULPS X4, X3, X3
	VMULPS X5, X3, X3
	VADDPS X3, X9, X9
	ADDQ $72, SI
	ADDQ $136, DI
	DECQ DX
	JNZ loop4
fold:
	// Lanes fold as (0+1)+(2+3), then the last nb%4 blocks add one by one.
	VMOVSHDUP X9, X0
	VADDPS X9, X0, X0
	VMOVHLPS X0, X0, X1
	VADDSS X1, X0, X0
	ANDQ $3, CX
	JZ done
loop:
	NIBBLES(2)
	VPSUBB Y13, Y1, Y1
	VMOVDQU 2(DI), Y2
	VPSIGNB Y1, Y1, Y3
	VPSIGNB Y1, Y2, Y2
	VPMADDUBSW Y2, Y3, Y3
	VPMADDWD Y15, Y3, Y3
	HSUMD(Y3, X3, X4)
	VCVTDQ2PS X3, X3
	VCVTPH2PS (SI), X4
	VCVTPH2PS (DI), X5
	VMULSS X4, X3, X3
	VMULSS X5, X3, X3
	VADDSS X3, X0, X0
	ADDQ $18, SI
	ADDQ $34, DI
	DECQ CX
	JNZ loop
done:
	ROWEND

// Kernels in llama.cpp's order (dot_ggml.go): Y9 holds eight float
// lanes; a block's eight int32 lane sums (Y3) are converted and added to
// them with a fused multiply-add by the block's scale product (X4).
// GROWSTART begins such a row, LANESFMA accumulates a block, HSUM8 folds
// the lanes into X0 as hsum_float_8 does.
#define GROWSTART \
	MOVQ a+8(FP), DI; \
	MOVQ nb+16(FP), CX; \
	VXORPS Y9, Y9, Y9

#define LANESFMA \
	VCVTDQ2PS Y3, Y3; \
	VBROADCASTSS X4, Y4; \
	VFMADD231PS Y3, Y4, Y9

#define HSUM8 FOLD8(Y9, X9)

// func dotQ8_0AVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ8_0AVX2(SB), NOSPLIT, $0-40
	PROLOGUE
	TESTQ R12, R12
	JZ end
rows:
	GROWSTART
	TESTQ CX, CX
	JZ fold
loop:
	VMOVDQU 2(SI), Y1
	VMOVDQU 2(DI), Y2
	VPSIGNB Y1, Y1, Y3
	VPSIGNB Y1, Y2, Y2
	VPMADDUBSW Y2, Y3, Y3
	VPMADDWD Y15, Y3, Y3
	VCVTPH2PS (SI), X4
	VCVTPH2PS (DI), X5
	VMULSS X5, X4, X4
	LANESFMA
	ADDQ $34, SI
	ADDQ $34, DI
	DECQ CX
	JNZ loop
fold:
	HSUM8
	ROWEND

// func dotQ4_0GAVX2(w, a *byte, nb, nrows int, out *float32)
// Q4_0 in ggml_vec_dot_q4_0_q8_0's order (dotQ4_0G): the nibbles less 8
// go through the Q8_0 lane sums.
TEXT ·dotQ4_0GAVX2(SB), NOSPLIT, $0-40
	PROLOGUE
	VPBROADCASTD dotK<>+4(SB), Y13
	TESTQ R12, R12
	JZ end
rows:
	GROWSTART
	TESTQ CX, CX
	JZ fold
loop:
	NIBBLES(2)
	VPSUBB Y13, Y1, Y1
	VMOVDQU 2(DI), Y2
	VPSIGNB Y1, Y1, Y3
	VPSIGNB Y1, Y2, Y2
	VPMADDUBSW Y2, Y3, Y3
	VPMADDWD Y15, Y3, Y3
	VCVTPH2PS (SI), X4
	VCVTPH2PS (DI), X5
	VMULSS X5, X4, X4
	LANESFMA
	ADDQ $18, SI
	ADDQ $34, DI
	DECQ CX
	JNZ loop
fold:
	HSUM8
	ROWEND

// func dotQ5_0AVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ5_0AVX2(SB), NOSPLIT, $0-40
	PROLOGUE
	VPBROADCASTD dotK<>+8(SB), Y10
	TESTQ R12, R12
	JZ end
rows:
	GROWSTART
	TESTQ CX, CX
	JZ fold
loop:
	QHBITS(2)
	VPANDN Y10, Y5, Y5
	NIBBLES(6)
	VPOR Y5, Y1, Y1
	VMOVDQU 2(DI), Y2
	VPSIGNB Y1, Y1, Y3
	VPSIGNB Y1, Y2, Y2
	VPMADDUBSW Y2, Y3, Y3
	VPMADDWD Y15, Y3, Y3
	VCVTPH2PS (SI), X4
	VCVTPH2PS (DI), X5
	VMULSS X5, X4, X4
	LANESFMA
	ADDQ $22, SI
	ADDQ $34, DI
	DECQ CX
	JNZ loop
fold:
	HSUM8
	ROWEND

// Q4_1 and Q5_1 also sum m·s over the blocks in X8, with fused
// multiply-adds, and add it after the fold. X4 and X5 hold [d, m] and
// [d, s] of the weight and activation blocks.
#define MINSFMA \
	VMOVSHDUP X4, X6; \
	VMOVSHDUP X5, X7; \
	VFMADD231SS X7, X6, X8; \
	VMULSS X5, X4, X4

// func dotQ4_1AVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ4_1AVX2(SB), NOSPLIT, $0-40
	PROLOGUE
	TESTQ R12, R12
	JZ end
rows:
	GROWSTART
	VXORPS X8, X8, X8
	TESTQ CX, CX
	JZ fold
loop:
	NIBBLES(4)
	VPMADDUBSW 4(DI), Y1, Y3
	VPMADDWD Y15, Y3, Y3
	VCVTPH2PS (SI), X4
	VCVTPH2PS (DI), X5
	MINSFMA
	LANESFMA
	ADDQ $20, SI
	ADDQ $36, DI
	DECQ CX
	JNZ loop
fold:
	HSUM8
	VADDSS X8, X0, X0
	ROWEND

// func dotQ5_1AVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ5_1AVX2(SB), NOSPLIT, $0-40
	PROLOGUE
	VPBROADCASTD dotK<>+12(SB), Y10
	TESTQ R12, R12
	JZ end
rows:
	GROWSTART
	VXORPS X8, X8, X8
	TESTQ CX, CX
	JZ fold
loop:
	QHBITS(4)
	VPAND Y10, Y5, Y5
	NIBBLES(8)
	VPOR Y5, Y1, Y1
	VPMADDUBSW 4(DI), Y1, Y3
	VPMADDWD Y15, Y3, Y3
	VCVTPH2PS (SI), X4
	VCVTPH2PS (DI), X5
	MINSFMA
	LANESFMA
	ADDQ $24, SI
	ADDQ $36, DI
	DECQ CX
	JNZ loop
fold:
	HSUM8
	VADDSS X8, X0, X0
	ROWEND

// Shared by the K-quant kernels: Y8 accumulates scaled int32 partial sums
// of one super block, Y14 holds 0x0f bytes.

// ACC16(u, aoff, S, c) multiplies the unsigned values in u by the
// activation bytes at aoff(DI) and adds them into Y8 weighted by the two
// 16-value sub-block scales of chunk c held as int16 in S.
#define ACC16(u, aoff, S, c) \
	VPMADDUBSW aoff(DI), u, u; \
	VPSHUFB ·dotShufW16+(32*c)(SB), S, Y5; \
	VPMADDWD Y5, u, u; \
	VPADDD u, Y8, Y8

// ACC32 is ACC16 for one 32-value sub-block j with its scale in S.
#define ACC32(u, aoff, S, j) \
	VPMADDUBSW aoff(DI), u, u; \
	VPSHUFB ·dotShufW32+(32*j)(SB), S, Y5; \
	VPMADDWD Y5, u, u; \
	VPADDD u, Y8, Y8

// Q8KSCALE leaves the activation scale (f32 at 0(DI)) times the f16 at
// off(SI) in X4.
#define Q8KSCALE(off) \
	MOVWLZX off(SI), AX; \
	VMOVD AX, X4; \
	VCVTPH2PS X4, X4; \
	VMULSS (DI), X4, X4

#define KPROLOGUE \
	MOVQ w+0(FP), SI; \
	MOVQ nrows+24(FP), R12; \
	MOVQ out+32(FP), R13; \
	VPBROADCASTD dotK<>+0(SB), Y14

// KEPILOGUE8 ends a super block of the kernels in llama.cpp's order,
// whose eight float lanes are in Y11, and folds them into X0 at the end.
#define KEPILOGUE8(wsz) \
	ADDQ $wsz, SI; \
	ADDQ $292, DI; \
	DECQ CX; \
	JNZ loop; \
done: \
	FOLD8(Y11, X11)

#define KEPILOGUE(wsz) \
	ADDQ $wsz, SI; \
	ADDQ $292, DI; \
	DECQ CX; \
	JNZ loop; \
done: \
	ROWEND

// KSCALEMINS unpacks a Q4_K/Q5_K block's 6-bit scales and mins (see
// q4KScaleMin): the eight scales as int16 in both lanes of Y6, the eight
// mins as int16 in X7.
#define KSCALEMINS \
	MOVL 4(SI), AX \
	MOVL 8(SI), BX \
	MOVL 12(SI), DX \
	MOVL AX, R8 \
	ANDL $0x3f3f3f3f, R8 \
	MOVL DX, R9 \
	ANDL $0x0f0f0f0f, R9 \
	MOVL AX, R11 \
	SHRL $6, R11 \
	ANDL $0x03030303, R11 \
	SHLL $4, R11 \
	ORL R11, R9 \
	MOVL BX, R10 \
	ANDL $0x3f3f3f3f, R10 \
	MOVL DX, R11 \
	SHRL $4, R11 \
	ANDL $0x0f0f0f0f, R11 \
	MOVL BX, AX \
	SHRL $6, AX \
	ANDL $0x03030303, AX \
	SHLL $4, AX \
	ORL AX, R11 \
	SHLQ $32, R9 \
	ORQ R9, R8 \
	SHLQ $32, R11 \
	ORQ R11, R10 \
	VMOVQ R8, X6 \
	VPMOVZXBW X6, X6 \
	VINSERTI128 $1, X6, Y6, Y6 \
	VMOVQ R10, X7 \
	VPMOVZXBW X7, X7

// Q4KPAIR adds sub-blocks 2g and 2g+1 (the low and high nibbles of the
// 32 bytes at qoff(SI), activations at a0(DI) and a1(DI)) to Y8.
#define Q4KPAIR(qoff, a0, a1, j0, j1) \
	VMOVDQU qoff(SI), Y1; \
	VPSRLW $4, Y1, Y2; \
	VPAND Y14, Y1, Y1; \
	VPAND Y14, Y2, Y2; \
	ACC32(Y1, a0, Y6, j0); \
	ACC32(Y2, a1, Y6, j1)

// Q4KDOTS leaves a Q4_K super block's scaled integer dot, eight int32
// lanes (values 4i..4i+3 of every 32), in Y8.
#define Q4KDOTS \
	VPXOR Y8, Y8, Y8; \
	Q4KPAIR(16, 4, 36, 0, 1); \
	Q4KPAIR(48, 68, 100, 2, 3); \
	Q4KPAIR(80, 132, 164, 4, 5); \
	Q4KPAIR(112, 196, 228, 6, 7)

// func dotQ4_KAVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ4_KAVX2(SB), NOSPLIT, $0-40
	KPROLOGUE
	TESTQ R12, R12
	JZ end
rows:
	ROWSTART
	VXORPS X11, X11, X11
	TESTQ CX, CX
	JZ done
loop:
	KSCALEMINS
	// summs = sum_j min_j * (bsum[2j] + bsum[2j+1])
	VMOVDQU 260(DI), Y9
	VEXTRACTI128 $1, Y9, X10
	VPHADDW X10, X9, X9
	VPMADDWD X7, X9, X9
	VPSHUFD $0x4E, X9, X10
	VPADDD X10, X9, X9
	VPSHUFD $0xB1, X9, X10
	VPADDD X10, X9, X9
	Q4KDOTS
	// llama.cpp's repacked Q4_K order (dotQ4_KG): the dot and the
	// minimums each accumulate with a fused multiply-add, X0 and X11.
	HSUMD(Y8, X8, X1)
	VCVTDQ2PS X8, X8
	VCVTDQ2PS X9, X9
	VCVTPH2PS (SI), X4
	VBROADCASTSS (DI), X5
	VMULPS X5, X4, X4
	VFMADD231SS X4, X8, X0
	VMOVSHDUP X4, X4
	VFMADD231SS X4, X9, X11
	ADDQ $144, SI
	ADDQ $292, DI
	DECQ CX
	JNZ loop
done:
	VSUBSS X11, X0, X0
	ROWEND

// func dotQ4_KVecAVX2(w, a *byte, nb, nrows int, out *float32)
// Q4_K in ggml_vec_dot_q4_K_q8_K's order (dotQ4_KVecG), for matrices
// llama.cpp does not repack: the int32 lanes of Y8 go to the float lanes
// of Y11, the four sub-block pairs' minimums to the four lanes of X15.
TEXT ·dotQ4_KVecAVX2(SB), NOSPLIT, $0-40
	KPROLOGUE
	TESTQ R12, R12
	JZ end
rows:
	ROWSTART
	VXORPS Y11, Y11, Y11
	VXORPS X15, X15, X15
	TESTQ CX, CX
	JZ done
loop:
	KSCALEMINS
	// pair k: min_2k·bsum_2k + min_2k+1·bsum_2k+1, in dword k of X9
	VMOVDQU 260(DI), Y9
	VEXTRACTI128 $1, Y9, X10
	VPHADDW X10, X9, X9
	VPMADDWD X7, X9, X9
	Q4KDOTS
	VCVTDQ2PS Y8, Y8
	VCVTDQ2PS X9, X9
	VCVTPH2PS (SI), X4
	VBROADCASTSS (DI), X5
	VMULPS X5, X4, X4
	VBROADCASTSS X4, Y5
	VFMADD231PS Y8, Y5, Y11
	VMOVSHDUP X4, X4
	VBROADCASTSS X4, X4
	VFNMADD231PS X4, X9, X15
	KEPILOGUE8(144)
	// the minimums fold as an SSE hsum: (0+2) + (1+3)
	VMOVHLPS X15, X15, X1
	VADDPS X15, X1, X1
	VMOVSHDUP X1, X2
	VADDSS X2, X1, X1
	VADDSS X1, X0, X0
	ROWEND

// Q4KGEMMPAIR adds sub-blocks j0 and j1 (nibbles at qoff(SI), activations
// at a0(DI) and a1(DI)) as one integer, fused into X0 with the scale in X4.
#define Q4KGEMMPAIR(qoff, a0, a1, j0, j1) \
	VPXOR Y8, Y8, Y8; \
	Q4KPAIR(qoff, a0, a1, j0, j1); \
	HSUMD(Y8, X8, X1); \
	VCVTDQ2PS X8, X8; \
	VFMADD231SS X4, X8, X0

// func dotQ4_KGemmAVX2(w, a *byte, nb, nrows int, out *float32)
// Q4_K in the order of llama.cpp's repacked gemm (dotQ4_KGemmG): the dot
// and the minimums are fused into X0 and X11 once per pair of sub-blocks.
TEXT ·dotQ4_KGemmAVX2(SB), NOSPLIT, $0-40
	KPROLOGUE
	TESTQ R12, R12
	JZ end
rows:
	ROWSTART
	VXORPS X11, X11, X11
	TESTQ CX, CX
	JZ done
loop:
	KSCALEMINS
	// mins of sub-block pair k = min_2k·bsum_2k + min_2k+1·bsum_2k+1 in X9
	VMOVDQU 260(DI), Y9
	VEXTRACTI128 $1, Y9, X10
	VPHADDW X10, X9, X9
	VPMADDWD X7, X9, X9
	VCVTDQ2PS X9, X9
	VCVTPH2PS (SI), X4
	VBROADCASTSS (DI), X5
	VMULPS X5, X4, X4
	VMOVSHDUP X4, X13
	Q4KGEMMPAIR(16, 4, 36, 0, 1)
	VFMADD231SS X13, X9, X11
	Q4KGEMMPAIR(48, 68, 100, 2, 3)
	VMOVSHDUP X9, X12
	VFMADD231SS X13, X12, X11
	Q4KGEMMPAIR(80, 132, 164, 4, 5)
	VMOVHLPS X9, X9, X12
	VFMADD231SS X13, X12, X11
	Q4KGEMMPAIR(112, 196, 228, 6, 7)
	VPSHUFD $0xFF, X9, X12
	VFMADD231SS X13, X12, X11
	ADDQ $144, SI
	ADDQ $292, DI
	DECQ CX
	JNZ loop
done:
	VSUBSS X11, X0, X0
	ROWEND

// func dotQ5_KAVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ5_KAVX2(SB), NOSPLIT, $0-40
	KPROLOGUE
	VPBROADCASTD dotK<>+24(SB), Y13
	VPBROADCASTD dotK<>+28(SB), Y12
	TESTQ R12, R12
	JZ end
rows:
	ROWSTART
	VXORPS Y11, Y11, Y11
	VXORPS X15, X15, X15
	TESTQ CX, CX
	JZ done
loop:
	KSCALEMINS
	// summs = sum_j min_j * (bsum[2j] + bsum[2j+1])
	VMOVDQU 260(DI), Y9
	VEXTRACTI128 $1, Y9, X10
	VPHADDW X10, X9, X9
	VPMADDWD X7, X9, X9
	VPSHUFD $0x4E, X9, X10
	VPADDD X10, X9, X9
	VPSHUFD $0xB1, X9, X10
	VPADDD X10, X9, X9
	VPXOR Y8, Y8, Y8
	VMOVDQU 16(SI), Y10
	VMOVDQU 48(SI), Y1
	VPSRLW $4, Y1, Y2
	VPAND Y14, Y1, Y1
	VPAND Y14, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $4, Y3, Y3
	VPOR Y3, Y1, Y1
	VPAND Y12, Y10, Y3
	VPSLLW $3, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $2, Y10, Y10
	ACC32(Y1, 4, Y6, 0)
	ACC32(Y2, 36, Y6, 1)
	VMOVDQU 80(SI), Y1
	VPSRLW $4, Y1, Y2
	VPAND Y14, Y1, Y1
	VPAND Y14, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $4, Y3, Y3
	VPOR Y3, Y1, Y1
	VPAND Y12, Y10, Y3
	VPSLLW $3, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $2, Y10, Y10
	ACC32(Y1, 68, Y6, 2)
	ACC32(Y2, 100, Y6, 3)
	VMOVDQU 112(SI), Y1
	VPSRLW $4, Y1, Y2
	VPAND Y14, Y1, Y1
	VPAND Y14, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $4, Y3, Y3
	VPOR Y3, Y1, Y1
	VPAND Y12, Y10, Y3
	VPSLLW $3, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $2, Y10, Y10
	ACC32(Y1, 132, Y6, 4)
	ACC32(Y2, 164, Y6, 5)
	VMOVDQU 144(SI), Y1
	VPSRLW $4, Y1, Y2
	VPAND Y14, Y1, Y1
	VPAND Y14, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $4, Y3, Y3
	VPOR Y3, Y1, Y1
	VPAND Y12, Y10, Y3
	VPSLLW $3, Y3, Y3
	VPOR Y3, Y2, Y2
	ACC32(Y1, 196, Y6, 6)
	ACC32(Y2, 228, Y6, 7)
	// llama.cpp's order (dotQ5_KG): the int32 lanes of Y8 go to the float
	// lanes of Y11, the minimums to X15, both with fused multiply-adds.
	VCVTDQ2PS Y8, Y8
	VCVTDQ2PS X9, X9
	VCVTPH2PS (SI), X4
	VBROADCASTSS (DI), X5
	VMULPS X5, X4, X4
	VBROADCASTSS X4, Y5
	VFMADD231PS Y8, Y5, Y11
	VMOVSHDUP X4, X4
	VFNMADD231SS X4, X9, X15
	KEPILOGUE8(176)
	VADDSS X15, X0, X0
	ROWEND

// func dotQ6_KAVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ6_KAVX2(SB), NOSPLIT, $0-40
	KPROLOGUE
	VPBROADCASTD dotK<>+16(SB), Y13
	TESTQ R12, R12
	JZ end
rows:
	ROWSTART
	VXORPS Y11, Y11, Y11
	TESTQ CX, CX
	JZ done
loop:
	// The quants are biased by 32: isum = sum s*u*q8 - 32*sum_j s_j*bsum_j.
	VPMOVSXBW 192(SI), Y6
	VPMADDWD 260(DI), Y6, Y9
	VPERMQ $0x44, Y6, Y7
	VPERMQ $0xEE, Y6, Y6
	VPXOR Y8, Y8, Y8
	VMOVDQU 0(SI), Y1
	VMOVDQU 32(SI), Y2
	VMOVDQU 128(SI), Y3
	VPAND Y14, Y1, Y4
	VPSLLW $4, Y3, Y10
	VPAND Y13, Y10, Y10
	VPOR Y10, Y4, Y4
	ACC16(Y4, 4, Y7, 0)
	VPAND Y14, Y2, Y4
	VPSLLW $2, Y3, Y10
	VPAND Y13, Y10, Y10
	VPOR Y10, Y4, Y4
	ACC16(Y4, 36, Y7, 1)
	VPSRLW $4, Y1, Y4
	VPAND Y14, Y4, Y4
	VPAND Y13, Y3, Y10
	VPOR Y10, Y4, Y4
	ACC16(Y4, 68, Y7, 2)
	VPSRLW $4, Y2, Y4
	VPAND Y14, Y4, Y4
	VPSRLW $2, Y3, Y10
	VPAND Y13, Y10, Y10
	VPOR Y10, Y4, Y4
	ACC16(Y4, 100, Y7, 3)
	VMOVDQU 64(SI), Y1
	VMOVDQU 96(SI), Y2
	VMOVDQU 160(SI), Y3
	VPAND Y14, Y1, Y4
	VPSLLW $4, Y3, Y10
	VPAND Y13, Y10, Y10
	VPOR Y10, Y4, Y4
	ACC16(Y4, 132, Y6, 0)
	VPAND Y14, Y2, Y4
	VPSLLW $2, Y3, Y10
	VPAND Y13, Y10, Y10
	VPOR Y10, Y4, Y4
	ACC16(Y4, 164, Y6, 1)
	VPSRLW $4, Y1, Y4
	VPAND Y14, Y4, Y4
	VPAND Y13, Y3, Y10
	VPOR Y10, Y4, Y4
	ACC16(Y4, 196, Y6, 2)
	VPSRLW $4, Y2, Y4
	VPAND Y14, Y4, Y4
	VPSRLW $2, Y3, Y10
	VPAND Y13, Y10, Y10
	VPOR Y10, Y4, Y4
	ACC16(Y4, 228, Y6, 3)
	VPSLLD $5, Y9, Y9
	VPSUBD Y9, Y8, Y8
	// llama.cpp's order (dotQ6_KG): lanes stay apart until the end.
	VCVTDQ2PS Y8, Y8
	Q8KSCALE(208)
	VBROADCASTSS X4, Y4
	VFMADD231PS Y8, Y4, Y11
	KEPILOGUE8(210)
	ROWEND

// func dotQ3_KAVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ3_KAVX2(SB), NOSPLIT, $0-40
	KPROLOGUE
	VPBROADCASTD dotK<>+20(SB), Y12
	VPBROADCASTD dotK<>+24(SB), Y13
	VPBROADCASTD dotK<>+32(SB), Y11
	TESTQ R12, R12
	JZ end
rows:
	ROWSTART
	TESTQ CX, CX
	JZ done
loop:
	// Unpack the sixteen 6-bit scales (see q3KScales) into X6, minus 32.
	MOVL 96(SI), AX
	MOVL 100(SI), BX
	MOVL 104(SI), DX
	MOVL AX, R8
	ANDL $0x0f0f0f0f, R8
	MOVL DX, R11
	ANDL $0x03030303, R11
	SHLL $4, R11
	ORL R11, R8
	MOVL BX, R9
	ANDL $0x0f0f0f0f, R9
	MOVL DX, R11
	SHRL $2, R11
	ANDL $0x03030303, R11
	SHLL $4, R11
	ORL R11, R9
	MOVL AX, R10
	SHRL $4, R10
	ANDL $0x0f0f0f0f, R10
	MOVL DX, R11
	SHRL $4, R11
	ANDL $0x03030303, R11
	SHLL $4, R11
	ORL R11, R10
	MOVL BX, R11
	SHRL $4, R11
	ANDL $0x0f0f0f0f, R11
	MOVL DX, AX
	SHRL $6, AX
	ANDL $0x03030303, AX
	SHLL $4, AX
	ORL AX, R11
	SHLQ $32, R9
	ORQ R9, R8
	SHLQ $32, R11
	ORQ R11, R10
	VMOVQ R8, X6
	VPINSRQ $1, R10, X6, X6
	VPSUBB X11, X6, X6
	VPMOVSXBW X6, Y6
	// Values are u-4 with u = 2 low bits | hmask bit << 2 in 0..7:
	// isum = sum s*u*q8 - 4*sum_j s_j*bsum_j.
	VPMADDWD 260(DI), Y6, Y9
	VPERMQ $0x44, Y6, Y7
	VPERMQ $0xEE, Y6, Y6
	VMOVDQU (SI), Y10
	VPXOR Y8, Y8, Y8
	VMOVDQU 32(SI), Y1
	VPAND Y12, Y1, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $2, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $1, Y10, Y10
	ACC16(Y2, 4, Y7, 0)
	VPSRLW $2, Y1, Y2
	VPAND Y12, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $2, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $1, Y10, Y10
	ACC16(Y2, 36, Y7, 1)
	VPSRLW $4, Y1, Y2
	VPAND Y12, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $2, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $1, Y10, Y10
	ACC16(Y2, 68, Y7, 2)
	VPSRLW $6, Y1, Y2
	VPAND Y12, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $2, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $1, Y10, Y10
	ACC16(Y2, 100, Y7, 3)
	VMOVDQU 64(SI), Y1
	VPAND Y12, Y1, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $2, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $1, Y10, Y10
	ACC16(Y2, 132, Y6, 0)
	VPSRLW $2, Y1, Y2
	VPAND Y12, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $2, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $1, Y10, Y10
	ACC16(Y2, 164, Y6, 1)
	VPSRLW $4, Y1, Y2
	VPAND Y12, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $2, Y3, Y3
	VPOR Y3, Y2, Y2
	VPSRLW $1, Y10, Y10
	ACC16(Y2, 196, Y6, 2)
	VPSRLW $6, Y1, Y2
	VPAND Y12, Y2, Y2
	VPAND Y13, Y10, Y3
	VPSLLW $2, Y3, Y3
	VPOR Y3, Y2, Y2
	ACC16(Y2, 228, Y6, 3)
	VPSLLD $2, Y9, Y9
	VPSUBD Y9, Y8, Y8
	HSUMD(Y8, X8, X1)
	VCVTDQ2PS X8, X8
	Q8KSCALE(108)
	VMULSS X4, X8, X8
	VADDSS X8, X0, X0
	KEPILOGUE(110)

// func dotQ2_KAVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotQ2_KAVX2(SB), NOSPLIT, $0-40
	KPROLOGUE
	VPBROADCASTD dotK<>+20(SB), Y12
	TESTQ R12, R12
	JZ end
rows:
	ROWSTART
	TESTQ CX, CX
	JZ done
loop:
	// Low nibbles are the 16 scales, high nibbles the 16 mins.
	VMOVDQU (SI), X6
	VPSRLW $4, X6, X7
	VPAND X14, X7, X7
	VPAND X14, X6, X6
	VPMOVZXBW X6, Y6
	VPMOVZXBW X7, Y7
	VPMADDWD 260(DI), Y7, Y9
	HSUMD(Y9, X9, X1)
	VPERMQ $0x44, Y6, Y7
	VPERMQ $0xEE, Y6, Y6
	VPXOR Y8, Y8, Y8
	VMOVDQU 16(SI), Y1
	VPAND Y12, Y1, Y2
	ACC16(Y2, 4, Y7, 0)
	VPSRLW $2, Y1, Y2
	VPAND Y12, Y2, Y2
	ACC16(Y2, 36, Y7, 1)
	VPSRLW $4, Y1, Y2
	VPAND Y12, Y2, Y2
	ACC16(Y2, 68, Y7, 2)
	VPSRLW $6, Y1, Y2
	VPAND Y12, Y2, Y2
	ACC16(Y2, 100, Y7, 3)
	VMOVDQU 48(SI), Y1
	VPAND Y12, Y1, Y2
	ACC16(Y2, 132, Y6, 0)
	VPSRLW $2, Y1, Y2
	VPAND Y12, Y2, Y2
	ACC16(Y2, 164, Y6, 1)
	VPSRLW $4, Y1, Y2
	VPAND Y12, Y2, Y2
	ACC16(Y2, 196, Y6, 2)
	VPSRLW $6, Y1, Y2
	VPAND Y12, Y2, Y2
	ACC16(Y2, 228, Y6, 3)
	HSUMD(Y8, X8, X1)
	VCVTDQ2PS X8, X8
	VCVTDQ2PS X9, X9
	MOVL 80(SI), AX
	VMOVD AX, X4
	VCVTPH2PS X4, X4
	VBROADCASTSS (DI), X5
	VMULPS X5, X4, X4
	VMULSS X4, X8, X8
	VMOVSHDUP X4, X4
	VMULSS X4, X9, X9
	VSUBSS X9, X8, X8
	VADDSS X8, X0, X0
	KEPILOGUE(84)

// func dotBF16AVX2(w, a *byte, nb, nrows int, out *float32)
TEXT ·dotBF16AVX2(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), SI
	MOVQ nrows+24(FP), R12
	MOVQ out+32(FP), R13
	TESTQ R12, R12
	JZ end
rows:
	MOVQ a+8(FP), DI
	MOVQ nb+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	MOVQ CX, DX
	SHRQ $5, DX
	JZ reduce
loop:
	VPMOVZXWD 0(SI), Y4
	VPSLLD $16, Y4, Y4
	VMULPS 0(DI), Y4, Y4
	VADDPS Y4, Y0, Y0
	VPMOVZXWD 16(SI), Y5
	VPSLLD $16, Y5, Y5
	VMULPS 32(DI), Y5, Y5
	VADDPS Y5, Y1, Y1
	VPMOVZXWD 32(SI), Y6
	VPSLLD $16, Y6, Y6
	VMULPS 64(DI), Y6, Y6
	VADDPS Y6, Y2, Y2
	VPMOVZXWD 48(SI), Y7
	VPSLLD $16, Y7, Y7
	VMULPS 96(DI), Y7, Y7
	VADDPS Y7, Y3, Y3
	ADDQ $64, SI
	ADDQ $128, DI
	DECQ DX
	JNZ loop
reduce:
	// Lane folding order of floatLanesSum.
	VADDPS Y1, Y0, Y0
	VADDPS Y3, Y2, Y2
	VADDPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVHLPS X0, X0, X1
	VADDPS X1, X0, X0
	VMOVSHDUP X0, X1
	VADDSS X1, X0, X0
	ANDQ $31, CX
	JZ done
tail:
	MOVWLZX (SI), AX
	SHLL $16, AX
	VMOVD AX, X1
	VMULSS (DI), X1, X1
	VADDSS X1, X0, X0
	ADDQ $2, SI
	ADDQ $4, DI
	DECQ CX
	JNZ tail
done:
	ROWEND

// func dotCPUID(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·dotCPUID(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func dotXGETBV() (eax uint32)
TEXT ·dotXGETBV(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	RET
