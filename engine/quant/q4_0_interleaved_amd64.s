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

#define PROLOGUE \
	MOVQ w+0(FP), SI; \
	MOVQ tile+8(FP), DI; \
	MOVQ nb+16(FP), DX; \
	MOVQ ngroups+24(FP), R8; \
	MOVQ out+32(FP), R9; \
	MOVQ stride+40(FP), R10; \
	SHLQ $2, R10; \
	LEAQ (R10)(R10*2), R11; \
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
