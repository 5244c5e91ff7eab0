// NEON twins of the pure-Go kernels the dispatch tables name (dot.go):
// llama.cpp's summation orders of dot_ggml.go and dot_ggml_k.go, and
// dotQ2_K, dotQ3_K and dotBF16's own (each kernel names its Go one).
// Every one has the rows signature of the amd64 kernels:
//
//	func(w, a *byte, nb, nrows int, out *float32)
//
// nrows consecutive weight rows of nb blocks each, against one activation
// row; nb and nrows are at least 1 (the callers see to it).
//
// Registers: R0 walks the weights (rows are consecutive), R1 is the
// activation row, R6 the current activation block, R7 counts blocks, R3
// rows, R4 walks out; R8 is scratch. V22/V23 hold a block's eight int32
// lanes (0-3, 4-7), V20/V21 the eight float lanes. V31 holds the nibble
// mask 15. The integer products are exact in any grouping, so the lanes
// are formed with whatever pairwise adds are fastest; only the float
// steps are in the Go kernel's order, with FMLA for its FMA32.

#include "textflag.h"
#include "neon_arm64.h"

#define ROWS_ARGS \
	MOVD w+0(FP), R0; \
	MOVD a+8(FP), R1; \
	MOVD nb+16(FP), R2; \
	MOVD nrows+24(FP), R3; \
	MOVD out+32(FP), R4; \
	VMOVI $15, V31.B16

#define ROW_BEGIN \
	MOVD R1, R6; \
	MOVD R2, R7; \
	VEOR V20.B16, V20.B16, V20.B16; \
	VEOR V21.B16, V21.B16, V21.B16

#define NEXT_BLOCK(wb, ab, label) \
	ADD $wb, R0; \
	ADD $ab, R6; \
	SUB $1, R7; \
	CBNZ R7, label

// NEXT_ROW stores lane 0 of V20, the row's result.
#define NEXT_ROW(label) \
	FMOVS F20, (R4); \
	ADD $4, R4; \
	SUB $1, R3; \
	CBNZ R3, label

// ACC8 is lanes8.add: the int lanes V22/V23 to float, then each fused
// into its float lane with the scale in F25: acc = fma(d, float(s), acc).
#define ACC8 \
	SCVTF_4S(22, 22); \
	SCVTF_4S(23, 23); \
	VDUP V25.S[0], V25.S4; \
	VFMLA V25.S4, V22.S4, V20.S4; \
	VFMLA V25.S4, V23.S4, V21.S4

// Q8_LANES forms a 32-value block's lanes from int8 weights V0 (values
// 0-15), V1 (16-31) and activations V2, V3. Two int8 products can sum
// to 2·128², past int16, so pairs are added widening to int32 (SADDLP).
#define Q8_LANES \
	SMULL_8H(4, 0, 2); \
	SMULL2_8H(5, 0, 2); \
	SADDLP_4S(4, 4); \
	SADDLP_4S(5, 5); \
	ADDP_4S(22, 4, 5); \
	SMULL_8H(6, 1, 3); \
	SMULL2_8H(7, 1, 3); \
	SADDLP_4S(6, 6); \
	SADDLP_4S(7, 7); \
	ADDP_4S(23, 6, 7)

// Q8_LANES_DOT is Q8_LANES with dotprod: SDOT sums each lane's four
// products straight into int32.
#define Q8_LANES_DOT \
	VEOR V22.B16, V22.B16, V22.B16; \
	VEOR V23.B16, V23.B16, V23.B16; \
	SDOT_4S(22, 0, 2); \
	SDOT_4S(23, 1, 3)

// Q8_BLOCK finishes a block against a Q8_0 or Q8_1 activation block: its
// 32 values at yq(R6), the weight scale at 0(R0) times the activation's
// at 0(R6), then ACC8; Q8_BLOCKL forms the lanes with LANES.
#define Q8_BLOCK(yq) Q8_BLOCKL(yq, Q8_LANES)
#define Q8_BLOCKL(yq, LANES) \
	ADD $yq, R6, R8; \
	VLD1 (R8), [V2.B16, V3.B16]; \
	LANES; \
	LDF16(0, R0, R8, F25); \
	LDF16(0, R6, R8, F24); \
	FMULS F24, F25, F25; \
	ACC8

// Q8_0ROWS is the Q8_0 kernel with the lanes formed by LANES.
#define Q8_0ROWS(LANES, lrow, lblk) \
	ROWS_ARGS; \
lrow: \
	ROW_BEGIN; \
lblk: \
	ADD $2, R0, R8; \
	VLD1 (R8), [V0.B16, V1.B16]; \
	Q8_BLOCKL(2, LANES); \
	NEXT_BLOCK(34, 34, lblk); \
	SUM8(20, 21, 1); \
	NEXT_ROW(lrow); \
	RET

// func dotQ8_0NEON(w, a *byte, nb, nrows int, out *float32): dotQ8_0G.
TEXT ·dotQ8_0NEON(SB), NOSPLIT, $0-40
	Q8_0ROWS(Q8_LANES, q8row, q8blk)

// func dotQ8_0Dot(w, a *byte, nb, nrows int, out *float32): dotQ8_0G
// with dotprod.
TEXT ·dotQ8_0Dot(SB), NOSPLIT, $0-40
	Q8_0ROWS(Q8_LANES_DOT, q8drow, q8dblk)

// func dotQ4_0GNEON(w, a *byte, nb, nrows int, out *float32): dotQ4_0G,
// values 0-15 from the low nibbles and 16-31 from the high ones, less 8.
TEXT ·dotQ4_0GNEON(SB), NOSPLIT, $0-40
	ROWS_ARGS
	VMOVI $8, V30.B16
q40row:
	ROW_BEGIN
q40blk:
	ADD $2, R0, R8
	VLD1 (R8), [V1.B16]
	Q4_0_VALUES(V31, V30)
	Q8_BLOCK(2)
	NEXT_BLOCK(18, 34, q40blk)
	SUM8(20, 21, 1)
	NEXT_ROW(q40row)
	RET

// Q6_K. A super block is 8 chunks of 32 values, chunk c of half h (v =
// 128h + 32c + l) taking the nibble of ql[64h + 32(c%2) + l] (low for c <
// 2) and bits 2c, 2c+1 of qh[32h + l]. Its low 16 values have scale 2k,
// the high 16 scale 2k+1 (k = 4h + c), so lanes 0-3 take one and lanes
// 4-7 the other. The quants are taken unsigned (0-63), the -32 offset
// subtracted from the lanes afterwards as dotQ6_KG does.

// Q6_BITS: the two high bits of each value of the chunk into V16/V17 at
// bits 4-5 (V30 = 0x30), from qh in V4/V5 shifted by op/s.
#define Q6_BITS(op, s) \
	op $s, V4.B16, V16.B16; \
	op $s, V5.B16, V17.B16; \
	VAND V30.B16, V16.B16, V16.B16; \
	VAND V30.B16, V17.B16, V17.B16

// Q6_NIB: the nibbles of ql registers a, b into V6/V7 (low ones with
// VAND V31, high ones with VUSHR $4).
#define Q6_NIB_LO(a, b) \
	VAND V31.B16, a.B16, V6.B16; \
	VAND V31.B16, b.B16, V7.B16

#define Q6_NIB_HI(a, b) \
	VUSHR $4, a.B16, V6.B16; \
	VUSHR $4, b.B16, V7.B16

// SCALED_CHUNK multiplies a chunk's 32 quants (V6, V7) with the next 32
// activations (R9) and adds the quad sums into the lanes, scaled by
// sc.H[i] (lanes 0-3: the chunk's first 16 values) and sc.H[i+1] (lanes
// 4-7). Q2_K, Q3_K and Q6_K have a scale per 16 values.
#define SCALED_CHUNK(sc, i) \
	VLD1.P 32(R9), [V8.B16, V9.B16]; \
	QUADS(6, 7, 8, 9, 16, 17, 18, 19); \
	SMLAL_4S_H(22, 16, sc, i); \
	SMLAL2_4S_H(23, 16, sc, i+1)

// Q6_CHUNK joins V6/V7 and V16/V17 into the chunk's quants: SCALED_CHUNK.
#define Q6_CHUNK(sc, i) \
	VORR V16.B16, V6.B16, V6.B16; \
	VORR V17.B16, V7.B16, V7.B16; \
	SCALED_CHUNK(sc, i)

// Q6_HALF is half h (128 values) of the super block, its four chunks
// taken by CHUNK with the scales (s0, i0), (s0, i1), (s1, i2), (s1, i3).
#define Q6_HALF(h, CHUNK, s0, i0, i1, s1, i2, i3) \
	ADD $(64*h), R0, R8; \
	VLD1 (R8), [V0.B16, V1.B16, V2.B16, V3.B16]; \
	ADD $(128+32*h), R0, R8; \
	VLD1 (R8), [V4.B16, V5.B16]; \
	Q6_NIB_LO(V0, V1); \
	Q6_BITS(VSHL, 4); \
	CHUNK(s0, i0); \
	Q6_NIB_LO(V2, V3); \
	Q6_BITS(VSHL, 2); \
	CHUNK(s0, i1); \
	Q6_NIB_HI(V0, V1); \
	Q6_BITS(VSHL, 0); \
	CHUNK(s1, i2); \
	Q6_NIB_HI(V2, V3); \
	Q6_BITS(VUSHR, 2); \
	CHUNK(s1, i3)

// With dotprod, SCALED_CHUNK_DOT takes the chunk's quads as int32 lanes
// (SDOT: values 0-15 in V16, 16-31 in V17, the same integers as
// QUADS's) and scales them by lanes i and i+1 of the int32 scales in s.
#define SCALED_CHUNK_DOT(s, i) \
	VLD1.P 32(R9), [V8.B16, V9.B16]; \
	VEOR V16.B16, V16.B16, V16.B16; \
	VEOR V17.B16, V17.B16, V17.B16; \
	SDOT_4S(16, 6, 8); \
	SDOT_4S(17, 7, 9); \
	MLA_4S_S(22, 16, s, i); \
	MLA_4S_S(23, 17, s, i+1)

#define Q6_CHUNK_DOT(s, i) \
	VORR V16.B16, V6.B16, V6.B16; \
	VORR V17.B16, V7.B16, V7.B16; \
	SCALED_CHUNK_DOT(s, i)

#define Q6_HALVES \
	Q6_HALF(0, Q6_CHUNK, 10, 0, 2, 10, 4, 6); \
	Q6_HALF(1, Q6_CHUNK, 11, 0, 2, 11, 4, 6)

// Q6_HALVES_DOT widens the sixteen scales to int32 (V12-V15) first.
#define Q6_HALVES_DOT \
	SXTL_4S(12, 10); \
	SXTL2_4S(13, 10); \
	SXTL_4S(14, 11); \
	SXTL2_4S(15, 11); \
	Q6_HALF(0, Q6_CHUNK_DOT, 12, 0, 2, 13, 0, 2); \
	Q6_HALF(1, Q6_CHUNK_DOT, 14, 0, 2, 15, 0, 2)

// Q6K_ROWS is dotQ6_KG with the super block's lanes from HALVES. The
// block's 16 int8 scales become int16 (0-7 in V10, 8-15 in V11); lane
// i's offset 32·(sc[2i]·bsum[2i] + sc[2i+1]·bsum[2i+1]) goes to V24
// (lanes 0-3) and V25 (4-7).
#define Q6K_ROWS(HALVES, lrow, lblk) \
	ROWS_ARGS; \
	VMOVI $48, V30.B16; \
lrow: \
	ROW_BEGIN; \
lblk: \
	ADD $192, R0, R8; \
	VLD1 (R8), [V9.B16]; \
	SXTL_8H(10, 9); \
	SXTL2_8H(11, 9); \
	ADD $260, R6, R8; \
	VLD1 (R8), [V12.H8, V13.H8]; \
	SMULL_4S(14, 10, 12); \
	SMULL2_4S(15, 10, 12); \
	ADDP_4S(24, 14, 15); \
	SMULL_4S(14, 11, 13); \
	SMULL2_4S(15, 11, 13); \
	ADDP_4S(25, 14, 15); \
	VSHL $5, V24.S4, V24.S4; \
	VSHL $5, V25.S4, V25.S4; \
	VEOR V22.B16, V22.B16, V22.B16; \
	VEOR V23.B16, V23.B16, V23.B16; \
	ADD $4, R6, R9; \
	HALVES; \
	VSUB V24.S4, V22.S4, V22.S4; \
	VSUB V25.S4, V23.S4, V23.S4; \
	FMOVS (R6), F24; \
	LDF16(208, R0, R8, F25); \
	FMULS F24, F25, F25; \
	ACC8; \
	NEXT_BLOCK(210, 292, lblk); \
	SUM8(20, 21, 1); \
	NEXT_ROW(lrow); \
	RET

// func dotQ6_KNEON(w, a *byte, nb, nrows int, out *float32): dotQ6_KG.
TEXT ·dotQ6_KNEON(SB), NOSPLIT, $0-40
	Q6K_ROWS(Q6_HALVES, q6row, q6blk)

// func dotQ6_KDot(w, a *byte, nb, nrows int, out *float32): the same
// with dotprod.
TEXT ·dotQ6_KDot(SB), NOSPLIT, $0-40
	Q6K_ROWS(Q6_HALVES_DOT, q6drow, q6dblk)

// Q4_K. KMIN_HEAD unpacks a super block's eight 6-bit scales and minimums
// (the 12 bytes at 4(R0), as q4KScaleMin) in general registers, a word of
// four at a time, into V10 (scales, int16) and V11 (minimums), and leaves
// in V14 the four pair sums min[j]·(bsum[2j]+bsum[2j+1]) + the same for
// j+1, j = 0, 2, 4, 6. It points R12 at the quants (qs bytes into the
// block: Q4_K's and Q5_K's scales are alike) and R9 at the activations.
#define KMIN_HEAD(qs) \
	MOVWU 4(R0), R10; \
	MOVWU 8(R0), R11; \
	MOVWU 12(R0), R12; \
	ANDW $0x3f3f3f3f, R10, R13; \
	LSRW $2, R10, R15; \
	ANDW $0x30303030, R15, R15; \
	ANDW $0x0f0f0f0f, R12, R14; \
	ORRW R15, R14, R14; \
	ORR R14<<32, R13, R13; \
	ANDW $0x3f3f3f3f, R11, R19; \
	LSRW $2, R11, R15; \
	ANDW $0x30303030, R15, R15; \
	LSRW $4, R12, R20; \
	ANDW $0x0f0f0f0f, R20, R20; \
	ORRW R15, R20, R20; \
	ORR R20<<32, R19, R19; \
	VMOV R13, V9.D[0]; \
	VMOV R19, V9.D[1]; \
	UXTL_8H(10, 9); \
	UXTL2_8H(11, 9); \
	ADD $260, R6, R8; \
	VLD1 (R8), [V12.H8, V13.H8]; \
	ADDP_8H(12, 12, 13); \
	SMULL_4S(14, 11, 12); \
	SMULL2_4S(15, 11, 12); \
	ADDP_4S(14, 14, 15); \
	ADD $qs, R0, R12; \
	ADD $4, R6, R9

// Q4K_PAIR reads the next 32 quant bytes and 64 activations: the quad
// sums of sub-block 2p (low nibbles) into V16, of 2p+1 (high) into V17.
#define Q4K_PAIR \
	VLD1.P 32(R12), [V0.B16, V1.B16]; \
	VLD1.P 64(R9), [V2.B16, V3.B16, V4.B16, V5.B16]; \
	VAND V31.B16, V0.B16, V6.B16; \
	VAND V31.B16, V1.B16, V7.B16; \
	QUADS(6, 7, 2, 3, 16, 18, 19, 15); \
	VUSHR $4, V0.B16, V0.B16; \
	VUSHR $4, V1.B16, V1.B16; \
	QUADS(0, 1, 4, 5, 17, 18, 19, 15)

#define Q4K_HEAD KMIN_HEAD(16)

// PAIR_LANES adds a pair's quads (V16, V17), scaled, into the lanes
// V22/V23.
#define PAIR_LANES(j0, j1) \
	SMLAL_4S_H(22, 16, 10, j0); \
	SMLAL2_4S_H(23, 16, 10, j0); \
	SMLAL_4S_H(22, 17, 10, j1); \
	SMLAL2_4S_H(23, 17, 10, j1)

// With dotprod, Q4K_PAIR_DOT leaves each sub-block's eight quad sums in
// int32 lanes, two registers (sub-block 2p in V16, V17, 2p+1 in V18,
// V19): the same quads as QUADS's int16 lanes, so every lane below holds
// the same integer. Q4K_HEAD_DOT widens the scales to int32 (V12: 0-3,
// V13: 4-7) for the by-element multiplies.
#define Q4K_PAIR_DOT \
	VLD1.P 32(R12), [V0.B16, V1.B16]; \
	VLD1.P 64(R9), [V2.B16, V3.B16, V4.B16, V5.B16]; \
	VAND V31.B16, V0.B16, V6.B16; \
	VAND V31.B16, V1.B16, V7.B16; \
	VUSHR $4, V0.B16, V0.B16; \
	VUSHR $4, V1.B16, V1.B16; \
	ZERO4(V16, V17, V18, V19); \
	SDOT_4S(16, 6, 2); \
	SDOT_4S(17, 7, 3); \
	SDOT_4S(18, 0, 4); \
	SDOT_4S(19, 1, 5)

#define Q4K_HEAD_DOT \
	Q4K_HEAD; \
	UXTL_4S(12, 10); \
	UXTL2_4S(13, 10)

// PAIR_LANES_DOT is PAIR_LANES from Q4K_PAIR_DOT's quads: the pair's
// scales are lane j0 of s0 and lane j1 of s1 (V12 for sub-blocks 0-3,
// V13 for 4-7).
#define PAIR_LANES_DOT(s0, j0, s1, j1) \
	MLA_4S_S(22, 16, s0, j0); \
	MLA_4S_S(23, 17, s0, j0); \
	MLA_4S_S(22, 18, s1, j1); \
	MLA_4S_S(23, 19, s1, j1)

// Q4K_ALL_LANES is a whole super block's lanes (dotQ4_KVecG's s).
#define Q4K_ALL_LANES \
	VEOR V22.B16, V22.B16, V22.B16; \
	VEOR V23.B16, V23.B16, V23.B16; \
	Q4K_HEAD; \
	Q4K_PAIR; \
	PAIR_LANES(0, 1); \
	Q4K_PAIR; \
	PAIR_LANES(2, 3); \
	Q4K_PAIR; \
	PAIR_LANES(4, 5); \
	Q4K_PAIR; \
	PAIR_LANES(6, 7)

#define Q4K_ALL_LANES_DOT \
	VEOR V22.B16, V22.B16, V22.B16; \
	VEOR V23.B16, V23.B16, V23.B16; \
	Q4K_HEAD_DOT; \
	Q4K_PAIR_DOT; \
	PAIR_LANES_DOT(12, 0, 12, 1); \
	Q4K_PAIR_DOT; \
	PAIR_LANES_DOT(12, 2, 12, 3); \
	Q4K_PAIR_DOT; \
	PAIR_LANES_DOT(13, 0, 13, 1); \
	Q4K_PAIR_DOT; \
	PAIR_LANES_DOT(13, 2, 13, 3)

// Q4K_VEC is dotQ4_KVecG around ALL_LANES (a super block's lanes in
// V22/V23, its minimums' pair sums in V14), the minimums in four float
// lanes (V26).
#define Q4K_VEC(ALL_LANES, lrow, lblk) \
	ROWS_ARGS; \
lrow: \
	ROW_BEGIN; \
	VEOR V26.B16, V26.B16, V26.B16; \
lblk: \
	ALL_LANES; \
	FMOVS (R6), F24; \
	LDF16(0, R0, R8, F25); \
	FMULS F24, F25, F25; \
	LDF16(2, R0, R8, F27); \
	FNEGS F24, F28; \
	FMULS F28, F27, F27; \
	VDUP V27.S[0], V27.S4; \
	SCVTF_4S(14, 14); \
	VFMLA V27.S4, V14.S4, V26.S4; \
	ACC8; \
	NEXT_BLOCK(144, 292, lblk); \
	SUM8(20, 21, 1); \
	FOLD4(26, 1); \
	FADDS F26, F20, F20; \
	NEXT_ROW(lrow); \
	RET

// func dotQ4_KVecNEON(w, a *byte, nb, nrows int, out *float32):
// dotQ4_KVecG.
TEXT ·dotQ4_KVecNEON(SB), NOSPLIT, $0-40
	Q4K_VEC(Q4K_ALL_LANES, q4vrow, q4vblk)

// func dotQ4_KVecDot(w, a *byte, nb, nrows int, out *float32): the same
// with dotprod.
TEXT ·dotQ4_KVecDot(SB), NOSPLIT, $0-40
	Q4K_VEC(Q4K_ALL_LANES_DOT, q4vdrow, q4vdblk)

// Q4K_ROWS is dotQ4_KG around ALL_LANES: the block's whole integer dot
// and minimum sum go to lanes 0 and 1 of V22, fused with [d, dmin] into
// [acc, accMin] in V20.
#define Q4K_ROWS(ALL_LANES, lrow, lblk) \
	ROWS_ARGS; \
lrow: \
	ROW_BEGIN; \
lblk: \
	ALL_LANES; \
	VADD V23.S4, V22.S4, V22.S4; \
	VADDV V22.S4, V22; \
	VADDV V14.S4, V14; \
	VMOV V14.S[0], V22.S[1]; \
	SCVTF_4S(22, 22); \
	FMOVS (R6), F24; \
	LDF16(0, R0, R8, F25); \
	FMULS F24, F25, F25; \
	LDF16(2, R0, R8, F27); \
	FMULS F24, F27, F27; \
	VMOV V27.S[0], V25.S[1]; \
	VFMLA V25.S4, V22.S4, V20.S4; \
	NEXT_BLOCK(144, 292, lblk); \
	VDUP V20.S[1], V21.S4; \
	FSUBS F21, F20, F20; \
	NEXT_ROW(lrow); \
	RET

// func dotQ4_KNEON(w, a *byte, nb, nrows int, out *float32): dotQ4_KG.
TEXT ·dotQ4_KNEON(SB), NOSPLIT, $0-40
	Q4K_ROWS(Q4K_ALL_LANES, q4row, q4blk)

// func dotQ4_KDot(w, a *byte, nb, nrows int, out *float32): the same
// with dotprod.
TEXT ·dotQ4_KDot(SB), NOSPLIT, $0-40
	Q4K_ROWS(Q4K_ALL_LANES_DOT, q4drow, q4dblk)

// Q4K_GEMM_PAIR is a pair's scaled integer dot, s[2p] + s[2p+1], as the
// sum of the four int32 lanes of Vt.
#define Q4K_GEMM_PAIR(t, j0, j1) \
	Q4K_PAIR; \
	SMULL_4S_H(t, 16, 10, j0); \
	SMLAL2_4S_H(t, 16, 10, j0); \
	SMLAL_4S_H(t, 17, 10, j1); \
	SMLAL2_4S_H(t, 17, 10, j1)

// Q4K_GEMM_PAIR_DOT is the same from Q4K_PAIR_DOT's quads, the scales
// lanes j0, j1 of s (V12 or V13).
#define Q4K_GEMM_PAIR_DOT(t, s, j0, j1) \
	Q4K_PAIR_DOT; \
	MUL_4S_S(t, 16, s, j0); \
	MLA_4S_S(t, 17, s, j0); \
	MLA_4S_S(t, 18, s, j1); \
	MLA_4S_S(t, 19, s, j1)

#define Q4K_GEMM_PAIRS \
	Q4K_HEAD; \
	Q4K_GEMM_PAIR(26, 0, 1); \
	Q4K_GEMM_PAIR(27, 2, 3); \
	Q4K_GEMM_PAIR(28, 4, 5); \
	Q4K_GEMM_PAIR(29, 6, 7)

#define Q4K_GEMM_PAIRS_DOT \
	Q4K_HEAD_DOT; \
	Q4K_GEMM_PAIR_DOT(26, 12, 0, 1); \
	Q4K_GEMM_PAIR_DOT(27, 12, 2, 3); \
	Q4K_GEMM_PAIR_DOT(28, 13, 0, 1); \
	Q4K_GEMM_PAIR_DOT(29, 13, 2, 3)

// Q4K_GEMM is dotQ4_KGemmG around PAIRS (the four pairs' dots in
// V26-V29, the minimums' pair sums in V14). acc is lane 0 of V20, accMin
// lane 0 of V21; the pairs' dots are fused in turn (FMLA by element),
// then their minimums.
#define Q4K_GEMM(PAIRS, lrow, lblk) \
	ROWS_ARGS; \
lrow: \
	ROW_BEGIN; \
lblk: \
	PAIRS; \
	ADDP_4S(26, 26, 27); \
	ADDP_4S(28, 28, 29); \
	ADDP_4S(26, 26, 28); \
	SCVTF_4S(26, 26); \
	SCVTF_4S(14, 14); \
	FMOVS (R6), F24; \
	LDF16(0, R0, R8, F8); \
	FMULS F24, F8, F8; \
	LDF16(2, R0, R8, F9); \
	FMULS F24, F9, F9; \
	FMLA_4S_S(20, 8, 26, 0); \
	FMLA_4S_S(20, 8, 26, 1); \
	FMLA_4S_S(20, 8, 26, 2); \
	FMLA_4S_S(20, 8, 26, 3); \
	FMLA_4S_S(21, 9, 14, 0); \
	FMLA_4S_S(21, 9, 14, 1); \
	FMLA_4S_S(21, 9, 14, 2); \
	FMLA_4S_S(21, 9, 14, 3); \
	NEXT_BLOCK(144, 292, lblk); \
	FSUBS F21, F20, F20; \
	NEXT_ROW(lrow); \
	RET

// func dotQ4_KGemmNEON(w, a *byte, nb, nrows int, out *float32):
// dotQ4_KGemmG.
TEXT ·dotQ4_KGemmNEON(SB), NOSPLIT, $0-40
	Q4K_GEMM(Q4K_GEMM_PAIRS, q4grow, q4gblk)

// func dotQ4_KGemmDot(w, a *byte, nb, nrows int, out *float32): the
// same with dotprod.
TEXT ·dotQ4_KGemmDot(SB), NOSPLIT, $0-40
	Q4K_GEMM(Q4K_GEMM_PAIRS_DOT, q4gdrow, q4gdblk)

// Q5_BITS (for Q5_K, below) ORs bit 4-s of V8/V9 (shifted left by s,
// to bit 4) into the nibbles in a, b (V28, V29 scratch).
#define Q5_BITS(s, a, b) \
	VSHL $s, V8.B16, V28.B16; \
	VSHL $s, V9.B16, V29.B16; \
	VAND V30.B16, V28.B16, V28.B16; \
	VAND V30.B16, V29.B16, V29.B16; \
	VORR V28.B16, a.B16, a.B16; \
	VORR V29.B16, b.B16, b.B16

// Q5_K: Q4_K's sub-blocks with a fifth bit, bit j of qh[l] (the 32 bytes
// at 16(R0)) for value l of sub-block j. Q5K_PAIR is Q4K_PAIR with those
// bits: V8/V9 hold qh shifted right by 2p for pair p, so bits 0 and 1
// are the pair's; V30 holds 0x10.
#define Q5K_PAIR \
	VLD1.P 32(R12), [V0.B16, V1.B16]; \
	VLD1.P 64(R9), [V2.B16, V3.B16, V4.B16, V5.B16]; \
	VAND V31.B16, V0.B16, V6.B16; \
	VAND V31.B16, V1.B16, V7.B16; \
	Q5_BITS(4, V6, V7); \
	QUADS(6, 7, 2, 3, 16, 18, 19, 15); \
	VUSHR $4, V0.B16, V0.B16; \
	VUSHR $4, V1.B16, V1.B16; \
	Q5_BITS(3, V0, V1); \
	QUADS(0, 1, 4, 5, 17, 18, 19, 15); \
	VUSHR $2, V8.B16, V8.B16; \
	VUSHR $2, V9.B16, V9.B16

// Q5K_PAIR_DOT is Q5K_PAIR with dotprod, its quads left as
// Q4K_PAIR_DOT's.
#define Q5K_PAIR_DOT \
	VLD1.P 32(R12), [V0.B16, V1.B16]; \
	VLD1.P 64(R9), [V2.B16, V3.B16, V4.B16, V5.B16]; \
	VAND V31.B16, V0.B16, V6.B16; \
	VAND V31.B16, V1.B16, V7.B16; \
	Q5_BITS(4, V6, V7); \
	VUSHR $4, V0.B16, V0.B16; \
	VUSHR $4, V1.B16, V1.B16; \
	Q5_BITS(3, V0, V1); \
	ZERO4(V16, V17, V18, V19); \
	SDOT_4S(16, 6, 2); \
	SDOT_4S(17, 7, 3); \
	SDOT_4S(18, 0, 4); \
	SDOT_4S(19, 1, 5); \
	VUSHR $2, V8.B16, V8.B16; \
	VUSHR $2, V9.B16, V9.B16

#define Q5K_LANES \
	Q5K_PAIR; \
	PAIR_LANES(0, 1); \
	Q5K_PAIR; \
	PAIR_LANES(2, 3); \
	Q5K_PAIR; \
	PAIR_LANES(4, 5); \
	Q5K_PAIR; \
	PAIR_LANES(6, 7)

#define Q5K_LANES_DOT \
	UXTL_4S(12, 10); \
	UXTL2_4S(13, 10); \
	Q5K_PAIR_DOT; \
	PAIR_LANES_DOT(12, 0, 12, 1); \
	Q5K_PAIR_DOT; \
	PAIR_LANES_DOT(12, 2, 12, 3); \
	Q5K_PAIR_DOT; \
	PAIR_LANES_DOT(13, 0, 13, 1); \
	Q5K_PAIR_DOT; \
	PAIR_LANES_DOT(13, 2, 13, 3)

// Q5K_ROWS is dotQ5_KG with the super block's lanes from LANES: the
// minimums fused into their own accumulator (lane 0 of V26), added at
// the end.
#define Q5K_ROWS(LANES, lrow, lblk) \
	ROWS_ARGS; \
	VMOVI $16, V30.B16; \
lrow: \
	ROW_BEGIN; \
	VEOR V26.B16, V26.B16, V26.B16; \
lblk: \
	VEOR V22.B16, V22.B16, V22.B16; \
	VEOR V23.B16, V23.B16, V23.B16; \
	KMIN_HEAD(48); \
	ADD $16, R0, R8; \
	VLD1 (R8), [V8.B16, V9.B16]; \
	LANES; \
	VADDV V14.S4, V14; \
	SCVTF_4S(14, 14); \
	FMOVS (R6), F24; \
	LDF16(0, R0, R8, F25); \
	FMULS F24, F25, F25; \
	LDF16(2, R0, R8, F27); \
	FNEGS F24, F28; \
	FMULS F28, F27, F27; \
	FMADDS F14, F26, F27, F26; \
	ACC8; \
	NEXT_BLOCK(176, 292, lblk); \
	SUM8(20, 21, 1); \
	FADDS F26, F20, F20; \
	NEXT_ROW(lrow); \
	RET

// func dotQ5_KNEON(w, a *byte, nb, nrows int, out *float32): dotQ5_KG,
// the minimums one integer per super block fused into summs (F26).
TEXT ·dotQ5_KNEON(SB), NOSPLIT, $0-40
	Q5K_ROWS(Q5K_LANES, q5row, q5blk)

// func dotQ5_KDot(w, a *byte, nb, nrows int, out *float32): the same
// with dotprod.
TEXT ·dotQ5_KDot(SB), NOSPLIT, $0-40
	Q5K_ROWS(Q5K_LANES_DOT, q5drow, q5dblk)

// The legacy types with a fifth bit or a minimum (dotQ5_0G, dotQ4_1G,
// dotQ5_1G). Q5_HIGH spreads the 32 fifth bits at off(R0) over the
// values' bytes: the qh byte holding each value's bit picked by VTBL
// (q5Index), tested against its bit (q5Bits), and masked to 0x10 (V30),
// then ORed into the nibbles V0 (values 0-15) and V1 (16-31).
DATA q5Bits<>+0(SB)/8, $0x8040201008040201
DATA q5Bits<>+8(SB)/8, $0x8040201008040201
GLOBL q5Bits<>(SB), RODATA|NOPTR, $16
DATA q5Index<>+0(SB)/8, $0x0000000000000000
DATA q5Index<>+8(SB)/8, $0x0101010101010101
DATA q5Index<>+16(SB)/8, $0x0202020202020202
DATA q5Index<>+24(SB)/8, $0x0303030303030303
GLOBL q5Index<>(SB), RODATA|NOPTR, $32

// LEGACY_CONSTS loads V30 = 0x10, V27/V28 = q5Index and V29 = q5Bits
// (V26 is the summs of the types with a minimum).
#define LEGACY_CONSTS \
	VMOVI $16, V30.B16; \
	MOVD $q5Index<>(SB), R8; \
	VLD1 (R8), [V27.B16, V28.B16]; \
	MOVD $q5Bits<>(SB), R8; \
	VLD1 (R8), [V29.B16]

#define Q5_HIGH(off) \
	MOVWU off(R0), R10; \
	VMOV R10, V9.S[0]; \
	VTBL V27.B16, [V9.B16], V10.B16; \
	VTBL V28.B16, [V9.B16], V11.B16; \
	VCMTST V29.B16, V10.B16, V10.B16; \
	VCMTST V29.B16, V11.B16, V11.B16; \
	VAND V30.B16, V10.B16, V10.B16; \
	VAND V30.B16, V11.B16, V11.B16; \
	VORR V10.B16, V0.B16, V0.B16; \
	VORR V11.B16, V1.B16, V1.B16

// NIBBLES splits the 16 bytes at off(R0) into values 0-15 (V0) and
// 16-31 (V1).
#define NIBBLES(off) \
	ADD $off, R0, R8; \
	VLD1 (R8), [V1.B16]; \
	VAND V31.B16, V1.B16, V0.B16; \
	VUSHR $4, V1.B16, V1.B16

// SUMMS is summs = fma(m, s, summs): the weight's minimum at 2(R0)
// times the activation's s at 2(R6), in F26.
#define SUMMS \
	LDF16(2, R0, R8, F24); \
	LDF16(2, R6, R8, F9); \
	FMADDS F9, F26, F24, F26

// func dotQ5_0NEON(w, a *byte, nb, nrows int, out *float32): dotQ5_0G.
TEXT ·dotQ5_0NEON(SB), NOSPLIT, $0-40
	ROWS_ARGS
	LEGACY_CONSTS
q50row:
	ROW_BEGIN
q50blk:
	NIBBLES(6)
	Q5_HIGH(2)
	VSUB V30.B16, V0.B16, V0.B16
	VSUB V30.B16, V1.B16, V1.B16
	Q8_BLOCK(2)
	NEXT_BLOCK(22, 34, q50blk)
	SUM8(20, 21, 1)
	NEXT_ROW(q50row)
	RET

// func dotQ4_1NEON(w, a *byte, nb, nrows int, out *float32): dotQ4_1G.
TEXT ·dotQ4_1NEON(SB), NOSPLIT, $0-40
	ROWS_ARGS
q41row:
	ROW_BEGIN
	VEOR V26.B16, V26.B16, V26.B16
q41blk:
	NIBBLES(4)
	SUMMS
	Q8_BLOCK(4)
	NEXT_BLOCK(20, 36, q41blk)
	SUM8(20, 21, 1)
	FADDS F26, F20, F20
	NEXT_ROW(q41row)
	RET

// func dotQ5_1NEON(w, a *byte, nb, nrows int, out *float32): dotQ5_1G.
TEXT ·dotQ5_1NEON(SB), NOSPLIT, $0-40
	ROWS_ARGS
	LEGACY_CONSTS
q51row:
	ROW_BEGIN
	VEOR V26.B16, V26.B16, V26.B16
q51blk:
	NIBBLES(8)
	Q5_HIGH(4)
	SUMMS
	Q8_BLOCK(4)
	NEXT_BLOCK(24, 36, q51blk)
	SUM8(20, 21, 1)
	FADDS F26, F20, F20
	NEXT_ROW(q51row)
	RET

// Q2_K and Q3_K (dotQ2_K, dotQ3_K): per super block the exact integer
// dot (and Q2_K's minimum sum) in one int32 each, then the float
// expression of the Go kernel, each product rounded (no fused steps),
// added to a single sum in F20. Their 2-bit quants: chunk (h, s) of 32
// values is bits 2s, 2s+1 of the 32 bytes at V0/V1, sub-blocks 8h+2s and
// 8h+2s+1.

// Q2_BITS extracts chunk s's 2-bit quants into V6/V7 (V30 = 3).
#define Q2_BITS(op, s) \
	op $(2*s), V0.B16, V6.B16; \
	op $(2*s), V1.B16, V7.B16; \
	VAND V30.B16, V6.B16, V6.B16; \
	VAND V30.B16, V7.B16, V7.B16

// Q3_BITS is Q2_BITS less 4 where the chunk's bit of hmask (bit 0 of
// V4/V5, which it then shifts right) is clear: (q | bit<<2) - 4, with
// V29 = 4.
#define Q3_BITS(op, s) \
	Q2_BITS(op, s); \
	VSHL $2, V4.B16, V16.B16; \
	VSHL $2, V5.B16, V17.B16; \
	VAND V29.B16, V16.B16, V16.B16; \
	VAND V29.B16, V17.B16, V17.B16; \
	VORR V16.B16, V6.B16, V6.B16; \
	VORR V17.B16, V7.B16, V7.B16; \
	VSUB V29.B16, V6.B16, V6.B16; \
	VSUB V29.B16, V7.B16, V7.B16; \
	VUSHR $1, V4.B16, V4.B16; \
	VUSHR $1, V5.B16, V5.B16

// K2_HALF is half h of a Q2_K or Q3_K super block (bits Q2_BITS or
// Q3_BITS): its 32 quant bytes at off(R0), scales in Vsc.
#define K2_HALF(bits, off, sc) \
	ADD $off, R0, R8; \
	VLD1 (R8), [V0.B16, V1.B16]; \
	bits(VSHL, 0); \
	SCALED_CHUNK(sc, 0); \
	bits(VUSHR, 1); \
	SCALED_CHUNK(sc, 2); \
	bits(VUSHR, 2); \
	SCALED_CHUNK(sc, 4); \
	bits(VUSHR, 3); \
	SCALED_CHUNK(sc, 6)

// LANES_TOTAL leaves the sum of the int lanes V22/V23, as a float, in F22.
#define LANES_TOTAL \
	VADD V23.S4, V22.S4, V22.S4; \
	VADDV V22.S4, V22; \
	SCVTF_4S(22, 22)

// func dotQ2_KNEON(w, a *byte, nb, nrows int, out *float32): dotQ2_K.
// Scales (low nibbles of the 16 bytes at 0(R0)) in V10/V11 as int16,
// minimums (high nibbles) in V12/V13.
TEXT ·dotQ2_KNEON(SB), NOSPLIT, $0-40
	ROWS_ARGS
	VMOVI $3, V30.B16
q2row:
	ROW_BEGIN
q2blk:
	VLD1 (R0), [V9.B16]
	VAND V31.B16, V9.B16, V8.B16
	VUSHR $4, V9.B16, V9.B16
	UXTL_8H(10, 8)
	UXTL2_8H(11, 8)
	UXTL_8H(12, 9)
	UXTL2_8H(13, 9)

	// summs = Σ bsum[j]·min[j], in lane 0 of V24.
	ADD $260, R6, R8
	VLD1 (R8), [V14.H8, V15.H8]
	SMULL_4S(24, 12, 14)
	SMLAL2_4S(24, 12, 14)
	SMLAL_4S(24, 13, 15)
	SMLAL2_4S(24, 13, 15)
	VADDV V24.S4, V24
	SCVTF_4S(24, 24)

	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	ADD $4, R6, R9
	K2_HALF(Q2_BITS, 16, 10)
	K2_HALF(Q2_BITS, 48, 11)
	LANES_TOTAL

	// sum += dall·isum - dmin·summs, dall and dmin yd times the f16s.
	FMOVS (R6), F25
	LDF16(80, R0, R8, F26)
	FMULS F25, F26, F26
	LDF16(82, R0, R8, F27)
	FMULS F25, F27, F27
	FMULS F26, F22, F22
	FMULS F27, F24, F24
	FSUBS F24, F22, F22
	FADDS F22, F20, F20
	NEXT_BLOCK(84, 292, q2blk)
	NEXT_ROW(q2row)
	RET

// func dotQ3_KNEON(w, a *byte, nb, nrows int, out *float32): dotQ3_K.
// The sixteen 6-bit scales (q3KScales) are put together in general
// registers, eight bytes at a time: low 4 bits from bytes 0-7 (low
// nibbles for scales 0-7, high ones for 8-15), high 2 bits from bytes
// 8-11 (bits 2k, 2k+1 of byte j%4 for scale j, k = j/4); less 32 they go
// to V10/V11 as int16.
TEXT ·dotQ3_KNEON(SB), NOSPLIT, $0-40
	ROWS_ARGS
	VMOVI $3, V30.B16
	VMOVI $4, V29.B16
	VMOVI $32, V28.B16
q3row:
	ROW_BEGIN
q3blk:
	MOVD 96(R0), R10
	MOVWU 104(R0), R11
	AND $0x0f0f0f0f0f0f0f0f, R10, R12
	LSR $4, R10, R13
	AND $0x0f0f0f0f0f0f0f0f, R13, R13
	ANDW $0x03030303, R11, R14
	LSRW $2, R11, R15
	ANDW $0x03030303, R15, R15
	ORR R15<<32, R14, R14
	ORR R14<<4, R12, R12
	LSRW $4, R11, R14
	ANDW $0x03030303, R14, R14
	LSRW $6, R11, R15
	ANDW $0x03030303, R15, R15
	ORR R15<<32, R14, R14
	ORR R14<<4, R13, R13
	VMOV R12, V9.D[0]
	VMOV R13, V9.D[1]
	VSUB V28.B16, V9.B16, V9.B16
	SXTL_8H(10, 9)
	SXTL2_8H(11, 9)

	VLD1 (R0), [V4.B16, V5.B16]
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	ADD $4, R6, R9
	K2_HALF(Q3_BITS, 32, 10)
	K2_HALF(Q3_BITS, 64, 11)
	LANES_TOTAL

	// sum += d·isum, d the f16 times yd.
	LDF16(108, R0, R8, F24)
	FMOVS (R6), F25
	FMULS F25, F24, F24
	FMULS F24, F22, F22
	FADDS F22, F20, F20
	NEXT_BLOCK(110, 292, q3blk)
	NEXT_ROW(q3row)
	RET

// BF16 (dotBF16, dot_float.go): value i of the first n&^31 into float
// lane i%32 (V16-V23), each product rounded and then added (no fused
// steps), the lanes folded as floatLanesSum, the rest added one by one.

// BF16_8 widens the eight bf16 of x (a bf16 is the top half of an f32:
// zipped under zeros, V30) and adds their products with the next eight
// activations (R6) into lanes Vlo, Vhi.
#define BF16_8(x, lo, hi) \
	VZIP1 x.H8, V30.H8, V4.H8; \
	VZIP2 x.H8, V30.H8, V5.H8; \
	VLD1.P 32(R6), [V6.S4, V7.S4]; \
	FMUL_4S(4, 4, 6); \
	FMUL_4S(5, 5, 7); \
	FADD_4S(lo, lo, 4); \
	FADD_4S(hi, hi, 5)

// func dotBF16NEON(w, a *byte, nb, nrows int, out *float32): nb values
// a row.
TEXT ·dotBF16NEON(SB), NOSPLIT, $0-40
	ROWS_ARGS
	VEOR V30.B16, V30.B16, V30.B16
bfrow:
	MOVD R1, R6
	LSR $5, R2, R7
	ZERO4(V16, V17, V18, V19)
	ZERO4(V20, V21, V22, V23)
	CBZ R7, bffold
bfblk:
	VLD1.P 64(R0), [V0.H8, V1.H8, V2.H8, V3.H8]
	BF16_8(V0, 16, 17)
	BF16_8(V1, 18, 19)
	BF16_8(V2, 20, 21)
	BF16_8(V3, 22, 23)
	SUB $1, R7
	CBNZ R7, bfblk
bffold:
	// v = (acc[k] + acc[8+k]) + (acc[16+k] + acc[24+k]), then SumLanes8's
	// steps (floatLanesSum ends as it does).
	FADD_4S(16, 16, 18)
	FADD_4S(20, 20, 22)
	FADD_4S(16, 16, 20)
	FADD_4S(17, 17, 19)
	FADD_4S(21, 21, 23)
	FADD_4S(17, 17, 21)
	SUM8(16, 17, 1)
	AND $31, R2, R7
	CBZ R7, bfdone
bftail:
	MOVHU.P 2(R0), R8
	LSLW $16, R8
	FMOVS R8, F8
	FMOVS.P 4(R6), F9
	FMULS F9, F8, F8
	FADDS F8, F16, F16
	SUB $1, R7
	CBNZ R7, bftail
bfdone:
	FMOVS F16, (R4)
	ADD $4, R4
	SUB $1, R3
	CBNZ R3, bfrow
	RET
