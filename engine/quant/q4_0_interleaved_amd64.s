// Interleaved Q4_0 (q4_0_interleaved.go) times tiled activations
// (q4_0_interleaved_act.go) with AVX-512 VNNI. Per group block the four
// 64-byte chunks of nibbles are unpacked once into Z0-Z7 (Z0-Z3 the low
// nibbles: values 4k..4k+3 of all sixteen rows; Z4-Z7 the high ones:
// values 16+4k..) and the sixteen scales widened into Z8. Each token then
// starts an int32 vector at its offset term -8·Σq, adds eight VPDPBUSD of
// the nibbles by a broadcast dword of its values (four values of every
// row, each row in its own lane), and accumulates acc = fma(float(s),
// dw·da, acc) in block order, as llama.cpp's repacked kernels do.
//
// Registers: SI weights (group blocks in order, groups one after another),
// DI the tile, AX the tile's current block, CX blocks left, DX blocks per
// group, R8 groups left, R9 token 0's outputs, R12 token 4's, R10 the
// output stride in bytes, R11 three strides; Z31 the nibble mask, Z9 the
// scales' product, Z10-Z17 the tokens' sums, Z18-Z25 their block dots.

#include "textflag.h"

DATA tileNibbles<>+0(SB)/4, $0x0f0f0f0f
GLOBL tileNibbles<>(SB), RODATA|NOPTR, $4

// ARGS loads the arguments, shared by every kernel here.
#define ARGS \
	MOVQ w+0(FP), SI; \
	MOVQ tile+8(FP), DI; \
	MOVQ nb+16(FP), DX; \
	MOVQ ngroups+24(FP), R8; \
	MOVQ out+32(FP), R9; \
	MOVQ stride+40(FP), R10; \
	SHLQ $2, R10; \
	LEAQ (R10)(R10*2), R11

#define PROLOGUE \
	ARGS; \
	LEAQ (R9)(R10*4), R12; \
	VPBROADCASTD tileNibbles<>(SB), Z31

#define UNPACK \
	VMOVDQU64 32(SI), Z0; \
	VMOVDQU64 96(SI), Z1; \
	VMOVDQU64 160(SI), Z2; \
	VMOVDQU64 224(SI), Z3; \
	VPSRLW $4, Z0, Z4; \
	VPSRLW $4, Z1, Z5; \
	VPSRLW $4, Z2, Z6; \
	VPSRLW $4, Z3, Z7; \
	VPANDD Z31, Z0, Z0; \
	VPANDD Z31, Z1, Z1; \
	VPANDD Z31, Z2, Z2; \
	VPANDD Z31, Z3, Z3; \
	VPANDD Z31, Z4, Z4; \
	VPANDD Z31, Z5, Z5; \
	VPANDD Z31, Z6, Z6; \
	VPANDD Z31, Z7, Z7; \
	VCVTPH2PS (SI), Z8

// TOKEN adds block AX's term of token t of a tile of m to ACC (I scratch).
#define TOKEN(m, t, I, ACC) \
	VPBROADCASTD 8*t(AX), I; \
	VPDPBUSD.BCST 8*m+32*t(AX), Z0, I; \
	VPDPBUSD.BCST 8*m+32*t+4(AX), Z1, I; \
	VPDPBUSD.BCST 8*m+32*t+8(AX), Z2, I; \
	VPDPBUSD.BCST 8*m+32*t+12(AX), Z3, I; \
	VPDPBUSD.BCST 8*m+32*t+16(AX), Z4, I; \
	VPDPBUSD.BCST 8*m+32*t+20(AX), Z5, I; \
	VPDPBUSD.BCST 8*m+32*t+24(AX), Z6, I; \
	VPDPBUSD.BCST 8*m+32*t+28(AX), Z7, I; \
	VCVTDQ2PS I, I; \
	VMULPS.BCST 8*t+4(AX), Z8, Z9; \
	VFMADD231PS Z9, I, ACC

#define NEXTBLOCK(m, label) \
	ADDQ $288, SI; \
	ADDQ $40*m, AX; \
	DECQ CX; \
	JNZ label

#define NEXTGROUP(label) \
	ADDQ $64, R9; \
	ADDQ $64, R12; \
	DECQ R8; \
	JNZ label; \
	VZEROUPPER; \
	RET

#define ZERO4(a, b, c, d) \
	VPXORD a, a, a; \
	VPXORD b, b, b; \
	VPXORD c, c, c; \
	VPXORD d, d, d

// STORE4 stores four tokens' sums, one output stride apart from base.
#define STORE4(base, a, b, c, d) \
	VMOVUPS a, (base); \
	VMOVUPS b, (base)(R10*1); \
	VMOVUPS c, (base)(R10*2); \
	VMOVUPS d, (base)(R11*1)

// func q4_0Tile8VNNI(w, tile *byte, nb, ngroups int, out *float32, stride int)
TEXT ·q4_0Tile8VNNI(SB), NOSPLIT, $0-48
	PROLOGUE
group8:
	MOVQ DI, AX
	MOVQ DX, CX
	ZERO4(Z10, Z11, Z12, Z13)
	ZERO4(Z14, Z15, Z16, Z17)
block8:
	UNPACK
	TOKEN(8, 0, Z18, Z10)
	TOKEN(8, 1, Z19, Z11)
	TOKEN(8, 2, Z20, Z12)
	TOKEN(8, 3, Z21, Z13)
	TOKEN(8, 4, Z22, Z14)
	TOKEN(8, 5, Z23, Z15)
	TOKEN(8, 6, Z24, Z16)
	TOKEN(8, 7, Z25, Z17)
	NEXTBLOCK(8, block8)
	STORE4(R9, Z10, Z11, Z12, Z13)
	STORE4(R12, Z14, Z15, Z16, Z17)
	NEXTGROUP(group8)

// func q4_0Tile4VNNI(w, tile *byte, nb, ngroups int, out *float32, stride int)
TEXT ·q4_0Tile4VNNI(SB), NOSPLIT, $0-48
	PROLOGUE
group4:
	MOVQ DI, AX
	MOVQ DX, CX
	ZERO4(Z10, Z11, Z12, Z13)
block4:
	UNPACK
	TOKEN(4, 0, Z18, Z10)
	TOKEN(4, 1, Z19, Z11)
	TOKEN(4, 2, Z20, Z12)
	TOKEN(4, 3, Z21, Z13)
	NEXTBLOCK(4, block4)
	STORE4(R9, Z10, Z11, Z12, Z13)
	NEXTGROUP(group4)

// One token (decode): the block dot is split over two vectors (low and
// high nibbles) so its chain of VPDPBUSD is half as long.
// func q4_0Tile1VNNI(w, tile *byte, nb, ngroups int, out *float32, stride int)
TEXT ·q4_0Tile1VNNI(SB), NOSPLIT, $0-48
	PROLOGUE
group1:
	MOVQ DI, AX
	MOVQ DX, CX
	VPXORD Z10, Z10, Z10
block1:
	UNPACK
	VPBROADCASTD (AX), Z18
	VPXORD Z19, Z19, Z19
	VPDPBUSD.BCST 8(AX), Z0, Z18
	VPDPBUSD.BCST 24(AX), Z4, Z19
	VPDPBUSD.BCST 12(AX), Z1, Z18
	VPDPBUSD.BCST 28(AX), Z5, Z19
	VPDPBUSD.BCST 16(AX), Z2, Z18
	VPDPBUSD.BCST 32(AX), Z6, Z19
	VPDPBUSD.BCST 20(AX), Z3, Z18
	VPDPBUSD.BCST 36(AX), Z7, Z19
	VPADDD Z19, Z18, Z18
	VCVTDQ2PS Z18, Z18
	VMULPS.BCST 4(AX), Z8, Z9
	VFMADD231PS Z9, Z18, Z10
	NEXTBLOCK(1, block1)
	VMOVUPS Z10, (R9)
	NEXTGROUP(group1)

// The same products on AVX2 (no VNNI): a row's four bytes of a chunk
// times a broadcast dword of the token's values is VPMADDUBSW (unsigned
// nibbles by signed values, two products a word: at most 2·15·128 in
// magnitude, so it never saturates) and the block's eight such words of
// a row add up in int16 (at most 8·3840 = 30720) before VPMADDWD by ones
// widens each row's pair of words to its int32 dot. The offset term, the
// conversion and acc = fma(float(s), dw·da, acc) follow as above, in block
// order, so every kernel here gives the VNNI kernels' bits.
//
// Sixteen YMM registers hold eight rows (half a group) for four tokens:
// Y0-Y3 the tokens' sums, Y4-Y7 their int16 block dots, Y8/Y9 a chunk's
// low and high nibbles, Y10 the raw chunk, Y11 scratch, Y13 the eight
// rows' scales, Y14 int16 ones, Y15 the nibble mask. A tile of eight is
// two passes of four over the same weights (from cache).
//
// Registers as in the VNNI kernels, and BX the tile's start, R13 the
// group's first block, R14 the current outputs.

DATA tileOnes16<>+0(SB)/4, $0x00010001
GLOBL tileOnes16<>(SB), RODATA|NOPTR, $4

#define PROLOGUE2 \
	ARGS; \
	VPBROADCASTD tileNibbles<>(SB), Y15; \
	VPBROADCASTD tileOnes16<>(SB), Y14

// SET16 sets the int16 dot I to nibbles W times values A; ADD16 adds
// them (A is clobbered), ADD16K too (A kept, Y11 clobbered).
#define SET16(W, A, I) VPMADDUBSW A, W, I
#define ADD16(W, A, I) VPMADDUBSW A, W, A; VPADDW A, I, I
#define ADD16K(W, A, I) VPMADDUBSW A, W, Y11; VPADDW Y11, I, I

// DOT2 adds chunk k's low (Y8) and high (Y9) nibbles times token t's
// values to its int16 dot I (first: SET16 for chunk 0, else ADD16).
#define DOT2(m, t, k, first, I) \
	VPBROADCASTD 8*(m)+32*(t)+4*(k)(AX), Y11; \
	first(Y8, Y11, I); \
	VPBROADCASTD 8*(m)+32*(t)+16+4*(k)(AX), Y11; \
	VPMADDUBSW Y11, Y9, Y11; \
	VPADDW Y11, I, I

// CHUNK2(m, t0, k, h, first) adds chunk k of half h (rows 8h..8h+7) of
// block SI to the int16 dots Y4-Y7 of tokens t0..t0+3 of a tile of m.
#define CHUNK2(m, t0, k, h, first) \
	VMOVDQU 32+64*k+32*h(SI), Y10; \
	VPSRLW $4, Y10, Y9; \
	VPAND Y15, Y10, Y8; \
	VPAND Y15, Y9, Y9; \
	DOT2(m, t0, k, first, Y4); \
	DOT2(m, t0+1, k, first, Y5); \
	DOT2(m, t0+2, k, first, Y6); \
	DOT2(m, t0+3, k, first, Y7)

// FIN2(m, t, I, ACC): token t's block dot I into its sum ACC.
#define FIN2(m, t, I, ACC) \
	VPMADDWD Y14, I, I; \
	VPBROADCASTD 8*(t)(AX), Y11; \
	VPADDD Y11, I, I; \
	VCVTDQ2PS I, I; \
	VBROADCASTSS 8*(t)+4(AX), Y11; \
	VMULPS Y13, Y11, Y11; \
	VFMADD231PS Y11, I, ACC

// QUAD2(m, t0, h, label) runs tokens t0..t0+3 of a tile of m over every
// block of half h of the group at R13, storing their sums at R14.
#define QUAD2(m, t0, h, label) \
	MOVQ R13, SI; \
	MOVQ DI, AX; \
	MOVQ DX, CX; \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
label: \
	VCVTPH2PS 16*h(SI), Y13; \
	CHUNK2(m, t0, 0, h, SET16); \
	CHUNK2(m, t0, 1, h, ADD16); \
	CHUNK2(m, t0, 2, h, ADD16); \
	CHUNK2(m, t0, 3, h, ADD16); \
	FIN2(m, t0, Y4, Y0); \
	FIN2(m, t0+1, Y5, Y1); \
	FIN2(m, t0+2, Y6, Y2); \
	FIN2(m, t0+3, Y7, Y3); \
	ADDQ $288, SI; \
	ADDQ $40*m, AX; \
	DECQ CX; \
	JNZ label; \
	VMOVUPS Y0, 32*h(R14); \
	VMOVUPS Y1, 32*h(R14)(R10*1); \
	VMOVUPS Y2, 32*h(R14)(R10*2); \
	VMOVUPS Y3, 32*h(R14)(R11*1)

// NEXTGROUP2 moves the outputs R9 to the next group's rows (SI is past
// the group already).
#define NEXTGROUP2(label) \
	ADDQ $64, R9; \
	DECQ R8; \
	JNZ label; \
	VZEROUPPER; \
	RET

// func q4_0Tile4AVX2(w, tile *byte, nb, ngroups int, out *float32, stride int)
TEXT ·q4_0Tile4AVX2(SB), NOSPLIT, $0-48
	PROLOGUE2
g4:
	MOVQ SI, R13
	MOVQ R9, R14
	QUAD2(4, 0, 0, b4h0)
	QUAD2(4, 0, 1, b4h1)
	NEXTGROUP2(g4)

// func q4_0Tile8AVX2(w, tile *byte, nb, ngroups int, out *float32, stride int)
TEXT ·q4_0Tile8AVX2(SB), NOSPLIT, $0-48
	PROLOGUE2
g8:
	MOVQ SI, R13
	MOVQ R9, R14
	QUAD2(8, 0, 0, b8h0q0)
	QUAD2(8, 0, 1, b8h1q0)
	LEAQ (R9)(R10*4), R14
	QUAD2(8, 4, 0, b8h0q1)
	QUAD2(8, 4, 1, b8h1q1)
	NEXTGROUP2(g8)

// One token: both halves of the group in one pass, the two activation
// dwords of a chunk broadcast once for all sixteen rows. Y0/Y1 the sums
// of rows 0-7 and 8-15, Y2/Y3 their int16 block dots, Y12/Y13 the
// chunk's activation dwords, Y4/Y5 the scales.
#define HALF1(k, h, first, I) \
	VMOVDQU 32+64*k+32*h(SI), Y10; \
	VPSRLW $4, Y10, Y9; \
	VPAND Y15, Y10, Y8; \
	VPAND Y15, Y9, Y9; \
	first(Y8, Y12, I); \
	VPMADDUBSW Y13, Y9, Y11; \
	VPADDW Y11, I, I

#define CHUNK1(k, first) \
	VPBROADCASTD 8+4*k(AX), Y12; \
	VPBROADCASTD 24+4*k(AX), Y13; \
	HALF1(k, 0, first, Y2); \
	HALF1(k, 1, first, Y3)

// func q4_0Tile1AVX2(w, tile *byte, nb, ngroups int, out *float32, stride int)
TEXT ·q4_0Tile1AVX2(SB), NOSPLIT, $0-48
	PROLOGUE2
g1:
	MOVQ DI, AX
	MOVQ DX, CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
b1:
	CHUNK1(0, SET16)
	CHUNK1(1, ADD16K)
	CHUNK1(2, ADD16K)
	CHUNK1(3, ADD16K)
	VPMADDWD Y14, Y2, Y2
	VPMADDWD Y14, Y3, Y3
	VPBROADCASTD (AX), Y11
	VPADDD Y11, Y2, Y2
	VPADDD Y11, Y3, Y3
	VCVTDQ2PS Y2, Y2
	VCVTDQ2PS Y3, Y3
	VBROADCASTSS 4(AX), Y11
	VCVTPH2PS (SI), Y4
	VCVTPH2PS 16(SI), Y5
	VMULPS Y4, Y11, Y4
	VMULPS Y5, Y11, Y5
	VFMADD231PS Y4, Y2, Y0
	VFMADD231PS Y5, Y3, Y1
	ADDQ $288, SI
	ADDQ $40, AX
	DECQ CX
	JNZ b1
	VMOVUPS Y0, (R9)
	VMOVUPS Y1, 32(R9)
	NEXTGROUP2(g1)
