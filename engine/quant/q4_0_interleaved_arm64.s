// Interleaved Q4_0 (q4_0_interleaved.go) times tiled activations
// (q4_0_interleaved_act.go) with NEON, in the order of
// interleavedGroupGo: per row acc = fma(float(s), dw·da, acc), block by
// block from 0. Without a dot-product instruction in base arm64 the
// integer dot is widening multiplies: for four rows at a time (one 16-byte
// quarter of each 64-byte chunk) the nibbles of all four chunks times the
// broadcast activation dwords are accumulated in int16 (at most 8·15·128
// per lane), widened and added pairwise into the rows' int32 sums, which
// start at the token's offset term -8·Σq.
//
// One token is done at a time over a group's blocks, so the four float
// accumulators of its sixteen rows stay in registers (V20-V23); the
// group's weights are read again for each token of the tile, from cache.
//
// Registers: R0 the group's weights, R1 the tile, R2 blocks a group, R3
// groups left, R4 tokens a tile (m), R5 the group's outputs of token 0,
// R6 the output stride in bytes, R7 a tile block's bytes (40m), R8 a
// group's bytes; per token R9 its index, R10 its outputs, R11 the
// current group block, R12 its offset term and scale, R13 its values,
// R14 blocks left. V0-V7 the broadcast activation dwords (low nibbles'
// k = 0-3, then the high ones'), V10-V13 the sixteen rows' dw·da, V24 the
// offset term, V31 the nibble mask.

#include "textflag.h"
#include "neon_arm64.h"

// QUARTER loads quarter q of block R11's four chunks (rows 4q..4q+3) as
// nibbles: the low ones in V14-V17, the high ones in V18, V19, V28, V29.
#define QUARTER(q) \
	ADD $(32+16*q), R11, R15; \
	VLD1 (R15), [V14.B16]; \
	ADD $64, R15; \
	VLD1 (R15), [V15.B16]; \
	ADD $64, R15; \
	VLD1 (R15), [V16.B16]; \
	ADD $64, R15; \
	VLD1 (R15), [V17.B16]; \
	VUSHR $4, V14.B16, V18.B16; \
	VUSHR $4, V15.B16, V19.B16; \
	VUSHR $4, V16.B16, V28.B16; \
	VUSHR $4, V17.B16, V29.B16; \
	VAND V31.B16, V14.B16, V14.B16; \
	VAND V31.B16, V15.B16, V15.B16; \
	VAND V31.B16, V16.B16, V16.B16; \
	VAND V31.B16, V17.B16, V17.B16

// ROWS4 adds block R11's term of rows 4q..4q+3 into acc (their scales in
// sc): the four chunks' quarter q, low nibbles V14-V17, high V18, V19,
// V28, V29; int16 sums of rows 4q, 4q+1 in V30, of 4q+2, 4q+3 in V9.
#define ROWS4(q, sc, acc) \
	QUARTER(q); \
	SMULL_8H(30, 14, 0); \
	SMLAL_8H(30, 15, 1); \
	SMLAL_8H(30, 16, 2); \
	SMLAL_8H(30, 17, 3); \
	SMLAL_8H(30, 18, 4); \
	SMLAL_8H(30, 19, 5); \
	SMLAL_8H(30, 28, 6); \
	SMLAL_8H(30, 29, 7); \
	SMULL2_8H(9, 14, 0); \
	SMLAL2_8H(9, 15, 1); \
	SMLAL2_8H(9, 16, 2); \
	SMLAL2_8H(9, 17, 3); \
	SMLAL2_8H(9, 18, 4); \
	SMLAL2_8H(9, 19, 5); \
	SMLAL2_8H(9, 28, 6); \
	SMLAL2_8H(9, 29, 7); \
	SADDLP_4S(30, 30); \
	SADDLP_4S(9, 9); \
	ADDP_4S(30, 30, 9); \
	VADD V24.S4, V30.S4, V30.S4; \
	SCVTF_4S(30, 30); \
	VFMLA sc.S4, V30.S4, acc.S4

// ROWS4DOT is ROWS4 with dotprod: per chunk, SDOT of the low nibbles
// by the token's dword k of values (V26) and of the high ones by its
// dword 4+k (V27), straight into int32 lanes that start at the offset
// term.
#define ROWS4DOT(q, sc, acc) \
	QUARTER(q); \
	VMOV V24.B16, V30.B16; \
	SDOT_4S_B(30, 14, 26, 0); \
	SDOT_4S_B(30, 15, 26, 1); \
	SDOT_4S_B(30, 16, 26, 2); \
	SDOT_4S_B(30, 17, 26, 3); \
	SDOT_4S_B(30, 18, 27, 0); \
	SDOT_4S_B(30, 19, 27, 1); \
	SDOT_4S_B(30, 28, 27, 2); \
	SDOT_4S_B(30, 29, 27, 3); \
	SCVTF_4S(30, 30); \
	VFMLA sc.S4, V30.S4, acc.S4

// DWORDS broadcasts the token's eight value dwords (V26, V27) into V0-V7
// for ROWS4's widening multiplies; SDOT takes them by index, so ROWS4DOT
// needs NODWORDS.
#define DWORDS \
	VDUP V26.S[0], V0.S4; \
	VDUP V26.S[1], V1.S4; \
	VDUP V26.S[2], V2.S4; \
	VDUP V26.S[3], V3.S4; \
	VDUP V27.S[0], V4.S4; \
	VDUP V27.S[1], V5.S4; \
	VDUP V27.S[2], V6.S4; \
	VDUP V27.S[3], V7.S4
#define NODWORDS

// TILEKERNEL is a whole kernel around ROWS (a macro adding block R11's
// term of rows 4q..4q+3 into acc, as ROWS4 does) and BCAST (what ROWS
// needs of the token's values beyond V26, V27); lg, lt, lb its labels.
#define TILEKERNEL(ROWS, BCAST, lg, lt, lb) \
	MOVD w+0(FP), R0; \
	MOVD tile+8(FP), R1; \
	MOVD nb+16(FP), R2; \
	MOVD ngroups+24(FP), R3; \
	MOVD m+32(FP), R4; \
	MOVD out+40(FP), R5; \
	MOVD stride+48(FP), R6; \
	LSL $2, R6; \
	MOVD $40, R7; \
	MUL R4, R7; \
	MOVD $288, R8; \
	MUL R2, R8; \
	VMOVI $15, V31.B16; \
lg: \
	MOVD $0, R9; \
	MOVD R5, R10; \
lt: \
	MOVD R0, R11; \
	ADD R9<<3, R1, R12; \
	ADD R4<<3, R1, R13; \
	ADD R9<<5, R13; \
	MOVD R2, R14; \
	VEOR V20.B16, V20.B16, V20.B16; \
	VEOR V21.B16, V21.B16, V21.B16; \
	VEOR V22.B16, V22.B16, V22.B16; \
	VEOR V23.B16, V23.B16, V23.B16; \
lb: \
	MOVWU (R12), R15; \
	VDUP R15, V24.S4; \
	FMOVS 4(R12), F25; \
	VLD1 (R13), [V26.B16, V27.B16]; \
	BCAST; \
	VLD1 (R11), [V8.H8, V9.H8]; \
	FCVTL_4S(10, 8); \
	FCVTL2_4S(11, 8); \
	FCVTL_4S(12, 9); \
	FCVTL2_4S(13, 9); \
	FMUL_4S_S(10, 10, 25, 0); \
	FMUL_4S_S(11, 11, 25, 0); \
	FMUL_4S_S(12, 12, 25, 0); \
	FMUL_4S_S(13, 13, 25, 0); \
	ROWS(0, V10, V20); \
	ROWS(1, V11, V21); \
	ROWS(2, V12, V22); \
	ROWS(3, V13, V23); \
	ADD $288, R11; \
	ADD R7, R12; \
	ADD R7, R13; \
	SUB $1, R14; \
	CBNZ R14, lb; \
	VST1 [V20.S4, V21.S4, V22.S4, V23.S4], (R10); \
	ADD R6, R10; \
	ADD $1, R9; \
	CMP R4, R9; \
	BLT lt; \
	ADD R8, R0; \
	ADD $64, R5; \
	SUB $1, R3; \
	CBNZ R3, lg; \
	RET

// func q4_0TileNEON(w, tile *byte, nb, ngroups, m int, out *float32, stride int)
TEXT ·q4_0TileNEON(SB), NOSPLIT, $0-56
	TILEKERNEL(ROWS4, DWORDS, neonGroup, neonToken, neonBlock)

// func q4_0TileDot(w, tile *byte, nb, ngroups, m int, out *float32, stride int)
TEXT ·q4_0TileDot(SB), NOSPLIT, $0-56
	TILEKERNEL(ROWS4DOT, NODWORDS, dotGroup, dotToken, dotBlock)

// The i8mm kernel takes the tile's tokens two at a time (m even): SMMLA
// multiplies two rows of eight weight bytes by two tokens' eight values,
// four int32 sums (row, token) at once. A chunk's quarter holds four
// values (a dword) of each of four rows, so ZIP1/ZIP2 of chunks 2c and
// 2c+1 give rows 4q, 4q+1 and rows 4q+2, 4q+3 with eight consecutive
// values each, and ZIP1/ZIP2 of the two tokens' value vectors give their
// values 0-7, 8-15 (and from the high halves 16-23, 24-31) side by side.
// Every (row, token) lane then takes ROWS4DOT's steps in its order: the
// int32 sum from the token's offset term, converted, acc = fma(float(s),
// dw·da, acc), block by block. The lanes are (row, token) pairs, so the
// pairs' dw·da are dw (row r, r, r+1, r+1) times da (token t, t+1, t, t+1).
//
// Registers beyond TILEKERNEL's: R9 steps two tokens; V0-V3 the token
// pair's values 0-7, 8-15, 16-23, 24-31; V4 their offset terms (t, t+1,
// t, t+1), V5 their scales so; V8-V15 the sixteen rows' dw·da by row
// pair; V16-V23 the float accumulators by row pair (lanes r·t, r·t+1,
// r+1·t, r+1·t+1); V29, V30 a quarter's int32 sums; V24-V28 scratch.

// PAIRS adds, for chunks c and c+1 of block R11's quarter q (at
// 32+16q+64c), the values lo (low nibbles) and hi (high nibbles) of the
// token pair into V29 (rows 4q, 4q+1) and V30 (rows 4q+2, 4q+3).
#define PAIRS(q, c, lo, hi) \
	ADD $(32+16*q+64*c), R11, R15; \
	VLD1 (R15), [V24.B16]; \
	ADD $64, R15; \
	VLD1 (R15), [V25.B16]; \
	VUSHR $4, V24.B16, V26.B16; \
	VUSHR $4, V25.B16, V27.B16; \
	VAND V31.B16, V24.B16, V24.B16; \
	VAND V31.B16, V25.B16, V25.B16; \
	ZIP1_4S(28, 24, 25); \
	SMMLA(29, 28, lo); \
	ZIP2_4S(28, 24, 25); \
	SMMLA(30, 28, lo); \
	ZIP1_4S(28, 26, 27); \
	SMMLA(29, 28, hi); \
	ZIP2_4S(28, 26, 27); \
	SMMLA(30, 28, hi)

// QUARTERMM adds block R11's term of rows 4q..4q+3 for the token pair
// into the accumulators a (rows 4q, 4q+1) and b (4q+2, 4q+3), whose
// dw·da are in sa, sb.
#define QUARTERMM(q, sa, sb, a, b) \
	VORR V4.B16, V4.B16, V29.B16; \
	VORR V4.B16, V4.B16, V30.B16; \
	PAIRS(q, 0, 0, 2); \
	PAIRS(q, 2, 1, 3); \
	SCVTF_4S(29, 29); \
	SCVTF_4S(30, 30); \
	VFMLA sa.S4, V29.S4, a.S4; \
	VFMLA sb.S4, V30.S4, b.S4

// STORETOKEN stores one token's sixteen outputs at R10 and steps R10 to
// the next token's: lanes (r, t), (r, t+1), (r+1, t), (r+1, t+1) of two
// row pairs hold token t's four rows in the even lanes (UZP1), t+1's in
// the odd ones (UZP2).
#define STORETOKEN(UZP) \
	UZP(24, 16, 17); \
	UZP(25, 18, 19); \
	UZP(26, 20, 21); \
	UZP(27, 22, 23); \
	VST1 [V24.S4, V25.S4, V26.S4, V27.S4], (R10); \
	ADD R6, R10

// func q4_0TileMM(w, tile *byte, nb, ngroups, m int, out *float32, stride int)
TEXT ·q4_0TileMM(SB), NOSPLIT, $0-56
	MOVD w+0(FP), R0
	MOVD tile+8(FP), R1
	MOVD nb+16(FP), R2
	MOVD ngroups+24(FP), R3
	MOVD m+32(FP), R4
	MOVD out+40(FP), R5
	MOVD stride+48(FP), R6
	LSL $2, R6
	MOVD $40, R7
	MUL R4, R7
	MOVD $288, R8
	MUL R2, R8
	VMOVI $15, V31.B16

mmGroup:
	MOVD $0, R9
	MOVD R5, R10

mmPair:
	MOVD R0, R11
	ADD R9<<3, R1, R12
	ADD R4<<3, R1, R13
	ADD R9<<5, R13
	MOVD R2, R14
	ZERO4(V16, V17, V18, V19)
	ZERO4(V20, V21, V22, V23)

mmBlock:
	// The pair's (offset term, scale) are 16 bytes: t's, then t+1's.
	VLD1 (R12), [V28.S4]
	UZP1_4S(4, 28, 28)
	UZP2_4S(5, 28, 28)
	VLD1 (R13), [V24.B16, V25.B16, V26.B16, V27.B16]
	ZIP1_2D(0, 24, 26)
	ZIP2_2D(1, 24, 26)
	ZIP1_2D(2, 25, 27)
	ZIP2_2D(3, 25, 27)
	VLD1 (R11), [V6.H8, V7.H8]
	FCVTL_4S(24, 6)
	FCVTL2_4S(25, 6)
	FCVTL_4S(26, 7)
	FCVTL2_4S(27, 7)
	ZIP1_4S(8, 24, 24)
	ZIP2_4S(9, 24, 24)
	ZIP1_4S(10, 25, 25)
	ZIP2_4S(11, 25, 25)
	ZIP1_4S(12, 26, 26)
	ZIP2_4S(13, 26, 26)
	ZIP1_4S(14, 27, 27)
	ZIP2_4S(15, 27, 27)
	FMUL_4S(8, 8, 5)
	FMUL_4S(9, 9, 5)
	FMUL_4S(10, 10, 5)
	FMUL_4S(11, 11, 5)
	FMUL_4S(12, 12, 5)
	FMUL_4S(13, 13, 5)
	FMUL_4S(14, 14, 5)
	FMUL_4S(15, 15, 5)
	QUARTERMM(0, V8, V9, V16, V17)
	QUARTERMM(1, V10, V11, V18, V19)
	QUARTERMM(2, V12, V13, V20, V21)
	QUARTERMM(3, V14, V15, V22, V23)
	ADD $288, R11
	ADD R7, R12
	ADD R7, R13
	SUB $1, R14
	CBNZ R14, mmBlock

	STORETOKEN(UZP1_4S)
	STORETOKEN(UZP2_4S)
	ADD $2, R9
	CMP R4, R9
	BLT mmPair
	ADD R8, R0
	ADD $64, R5
	SUB $1, R3
	CBNZ R3, mmGroup
	RET
