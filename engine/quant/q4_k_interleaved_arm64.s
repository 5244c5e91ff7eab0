// Interleaved Q4_K (q4_k_interleaved.go) with dotprod, one token a call,
// in the order of interleavedQ4KGroupGo: per row the sub-blocks' exact
// integer dots scaled by their 6-bit scales into isum, the minimums'
// mn[j]·(bsum[2j]+bsum[2j+1]) into mins, both flushed by
// acc = fma(float(isum), d·yd, acc) and accMin = fma(float(mins),
// dmin·yd, accMin) after every pair of sub-blocks (gemm) or once a super
// block (gemv); out = acc - accMin.
//
// A pair of sub-blocks is a 512-byte chunk: dword k of it holds four
// bytes of each of the sixteen rows, four registers of four rows. Each
// register's low nibbles are values 4k..4k+3 of sub-block 2g of its
// rows, its high nibbles those of 2g+1: SDOT by element (the token's
// dword k of that sub-block) adds them into the rows' int32 sums.
//
// Registers: R0 the group, R1 the token's Q8_K row, R3 super blocks a
// row, R4 groups left, R5 the group's outputs; R7 the current activation
// block, R8 the current group super block, R9 blocks left, R10 the quant
// walker. V0-V3 the sixteen rows' sums of sub-block 2g, V4-V7 of 2g+1
// (flush temporaries after); V8-V11 isum; V12, V13 the block's bsum pair
// sums (int32 lanes j = 0-3, 4-7); V14 yd (lane 0); V16-V19 acc; V20-V23
// accMin; V24-V27 the pair's activations (then scale temporaries);
// V28-V30 scratch; V31 the nibble mask.

#include "textflag.h"
#include "neon_arm64.h"

// QUAD takes one 16-byte register of chunk dword k (rows 4q..4q+3): its
// low nibbles by dword k%4 of V24/V25 (sub-block 2g) into V(q), its high
// ones by V26/V27 (2g+1) into V(4+q).
#define QUAD(k, q) \
	VLD1.P 16(R10), [V28.B16]; \
	VAND V31.B16, V28.B16, V29.B16; \
	VUSHR $4, V28.B16, V28.B16; \
	SDOT_4S_B(q, 29, 24+(k)/4, (k)%4); \
	SDOT_4S_B(4+q, 28, 26+(k)/4, (k)%4)

#define DWORD(k) \
	QUAD(k, 0); \
	QUAD(k, 1); \
	QUAD(k, 2); \
	QUAD(k, 3)

// WIDEN16 widens the sixteen bytes of Vb into int32 lanes V24-V27 (rows
// 0-3 .. 12-15), V30 scratch.
#define WIDEN16(b) \
	UXTL_8H(30, b); \
	UXTL2_8H(b, b); \
	UXTL_4S(24, 30); \
	UXTL2_4S(25, 30); \
	UXTL_4S(26, b); \
	UXTL2_4S(27, b)

// SCALE adds the sixteen rows' sums V(s)..V(s+3) times sub-block j's
// scales into isum.
#define SCALE(j, s) \
	ADD $(64+16*(j)), R8, R11; \
	VLD1 (R11), [V28.B16]; \
	WIDEN16(28); \
	MLA_4S(8, 24, s); \
	MLA_4S(9, 25, s+1); \
	MLA_4S(10, 26, s+2); \
	MLA_4S(11, 27, s+3)

// PAIR is sub-blocks 2g and 2g+1: their dots, scaled into isum.
#define PAIR(g) \
	ADD $(4+64*(g)), R7, R11; \
	VLD1 (R11), [V24.B16, V25.B16, V26.B16, V27.B16]; \
	ZERO4(V0, V1, V2, V3); \
	ZERO4(V4, V5, V6, V7); \
	DWORD(0); \
	DWORD(1); \
	DWORD(2); \
	DWORD(3); \
	DWORD(4); \
	DWORD(5); \
	DWORD(6); \
	DWORD(7); \
	SCALE(2*(g), 0); \
	SCALE(2*(g)+1, 4)

// ROWSF16 converts the sixteen f16 at off(R8) to f32 in V0-V3 and
// multiplies them by yd.
#define ROWSF16(off) \
	ADD $off, R8, R11; \
	VLD1 (R11), [V28.H8, V29.H8]; \
	FCVTL_4S(0, 28); \
	FCVTL2_4S(1, 28); \
	FCVTL_4S(2, 29); \
	FCVTL2_4S(3, 29); \
	FMUL_4S_S(0, 0, 14, 0); \
	FMUL_4S_S(1, 1, 14, 0); \
	FMUL_4S_S(2, 2, 14, 0); \
	FMUL_4S_S(3, 3, 14, 0)

// FUSE converts the int32 sums V4-V7 and fuses them, times V0-V3, into
// the accumulators a..a+3.
#define FUSE(a) \
	SCVTF_4S(4, 4); \
	SCVTF_4S(5, 5); \
	SCVTF_4S(6, 6); \
	SCVTF_4S(7, 7); \
	FMLA_4S(a, 4, 0); \
	FMLA_4S(a+1, 5, 1); \
	FMLA_4S(a+2, 6, 2); \
	FMLA_4S(a+3, 7, 3)

// MINS adds sub-block j's minimums times its bsum pair sum (lane j%4 of
// bs) into V4-V7.
#define MINS(j, bs) \
	ADD $(192+16*(j)), R8, R11; \
	VLD1 (R11), [V28.B16]; \
	WIDEN16(28); \
	MLA_4S_S(4, 24, bs, (j)%4); \
	MLA_4S_S(5, 25, bs, (j)%4); \
	MLA_4S_S(6, 26, bs, (j)%4); \
	MLA_4S_S(7, 27, bs, (j)%4)

// FLUSHISUM fuses isum (V8-V11) into acc and clears it.
#define FLUSHISUM \
	ROWSF16(0); \
	VORR V8.B16, V8.B16, V4.B16; \
	VORR V9.B16, V9.B16, V5.B16; \
	VORR V10.B16, V10.B16, V6.B16; \
	VORR V11.B16, V11.B16, V7.B16; \
	FUSE(16); \
	ZERO4(V8, V9, V10, V11)

// FLUSHPAIR is the gemm order's flush after pair g: isum, then the
// pair's minimums.
#define FLUSHPAIR(g) \
	FLUSHISUM; \
	ZERO4(V4, V5, V6, V7); \
	MINS(2*(g), 12+(g)/2); \
	MINS(2*(g)+1, 12+(g)/2); \
	ROWSF16(32); \
	FUSE(20)

#define NOFLUSH(g)

// FLUSHALL is the gemv order's flush after the last pair: isum, then
// the minimums of all eight sub-blocks in order.
#define FLUSHALL \
	FLUSHISUM; \
	ZERO4(V4, V5, V6, V7); \
	MINS(0, 12); \
	MINS(1, 12); \
	MINS(2, 12); \
	MINS(3, 12); \
	MINS(4, 13); \
	MINS(5, 13); \
	MINS(6, 13); \
	MINS(7, 13); \
	ROWSF16(32); \
	FUSE(20)

#define NOFLUSHALL

// Q4KTOKEN is a whole kernel, PAIRFLUSH(g) run after each pair and
// BLOCKFLUSH after the super block's last; lg, lb its labels.
#define Q4KTOKEN(PAIRFLUSH, BLOCKFLUSH, lg, lb) \
	MOVD w+0(FP), R0; \
	MOVD act+8(FP), R1; \
	MOVD nb+24(FP), R3; \
	MOVD ngroups+32(FP), R4; \
	MOVD out+40(FP), R5; \
	VMOVI $15, V31.B16; \
lg: \
	MOVD R1, R7; \
	MOVD R0, R8; \
	MOVD R3, R9; \
	ZERO4(V16, V17, V18, V19); \
	ZERO4(V20, V21, V22, V23); \
	ZERO4(V8, V9, V10, V11); \
lb: \
	FMOVS (R7), F14; \
	ADD $260, R7, R11; \
	VLD1 (R11), [V28.H8, V29.H8]; \
	ADDP_8H(28, 28, 29); \
	SXTL_4S(12, 28); \
	SXTL2_4S(13, 28); \
	ADD $320, R8, R10; \
	PAIR(0); \
	PAIRFLUSH(0); \
	PAIR(1); \
	PAIRFLUSH(1); \
	PAIR(2); \
	PAIRFLUSH(2); \
	PAIR(3); \
	PAIRFLUSH(3); \
	BLOCKFLUSH; \
	ADD $2368, R8; \
	ADD $292, R7; \
	SUB $1, R9; \
	CBNZ R9, lb; \
	FSUB_4S(16, 16, 20); \
	FSUB_4S(17, 17, 21); \
	FSUB_4S(18, 18, 22); \
	FSUB_4S(19, 19, 23); \
	VST1 [V16.S4, V17.S4, V18.S4, V19.S4], (R5); \
	ADD $64, R5; \
	MOVD R8, R0; \
	SUB $1, R4; \
	CBNZ R4, lg; \
	RET

// func q4KDotGemv1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KDotGemv1(SB), NOSPLIT, $0-56
	Q4KTOKEN(NOFLUSH, FLUSHALL, gvGroup, gvBlock)

// func q4KDotGemm1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KDotGemm1(SB), NOSPLIT, $0-56
	Q4KTOKEN(FLUSHPAIR, NOFLUSHALL, gmGroup, gmBlock)
