// Interleaved Q4_K (q4_k_interleaved.go) times Q8_K activations, in the
// orders of llama.cpp's repacked Q4_K gemv and gemm (dotQ4_KG and
// dotQ4_KGemmG). Per sub-block j of a super block, each token's exact
// int32 dot S of the sixteen (VNNI) or eight (AVX2) rows' quants with its
// values is scaled by the rows' 6-bit scales (VPMULLD) into the integer
// sum I, and the rows' minimums times the token's two 16-value sums of
// sub-block j (VPMADDWD of [mn, mn] words by the dword of both sums) into
// the integer minimum M; I and M are converted and fused into the row's
// float sums, acc = fma(float(I), dw·yd, acc) and likewise accMin with
// dmin, once per super block (gemv) or per pair of sub-blocks (gemm). The
// result is acc - accMin. Integer sums are exact in any order, so every
// kernel gives the Go kernel's bits.
//
// Arguments: SI the group super blocks (groups one after another), R8 the
// tokens' current super block (token t at R8 + t·R9), CX super blocks
// left, DX per group, R11 groups left, DI the outputs of the group's row
// 0 for token 0 (token t at DI + t·R12), R14 the activations' start,
// BX (AVX2) the group's first super block.

#include "textflag.h"

DATA q4kNibbles<>+0(SB)/4, $0x0f0f0f0f
GLOBL q4kNibbles<>(SB), RODATA|NOPTR, $4

#define ARGS \
	MOVQ w+0(FP), SI; \
	MOVQ act+8(FP), R14; \
	MOVQ astride+16(FP), R9; \
	MOVQ nb+24(FP), DX; \
	MOVQ ngroups+32(FP), R11; \
	MOVQ out+40(FP), DI; \
	MOVQ stride+48(FP), R12; \
	SHLQ $2, R12; \
	LEAQ (R9)(R9*2), R10; \
	LEAQ (R12)(R12*2), R13

// ---- AVX-512 VNNI: sixteen rows a register, up to four tokens. Z0-Z3
// acc, Z4-Z7 accMin, Z8-Z11 I, Z12-Z15 M, Z16-Z19 S of tokens 0-3; Z20 a
// dword of quants, Z21 its nibbles, Z22 the scales as dwords, Z23 the
// minimums as [mn, mn] words, Z24/Z25 the rows' d and dmin, Z26/Z27
// scratch, Z31 the nibble mask.

#define NIBLO VPANDD Z31, Z20, Z21
#define NIBHI VPSRLW $4, Z20, Z21; VPANDD Z31, Z21, Z21
#define NOP

#define ZDOT(j, k, B, S) VPDPBUSD.BCST 4+32*(j)+4*(k)B, Z21, S
#define ZSET(j, B, S, I, M) VPMULLD Z22, S, I; VPBROADCASTD 260+4*(j)B, Z27; VPMADDWD Z27, Z23, M
#define ZADD(j, B, S, I, M) VPMULLD Z22, S, Z26; VPADDD Z26, I, I; VPBROADCASTD 260+4*(j)B, Z27; VPMADDWD Z27, Z23, Z27; VPADDD Z27, M, M
#define ZFLUSH(B, I, M, ACC, ACCM) \
	VCVTDQ2PS I, Z26; \
	VMULPS.BCST B, Z24, Z27; \
	VFMADD231PS Z27, Z26, ACC; \
	VCVTDQ2PS M, Z26; \
	VMULPS.BCST B, Z25, Z27; \
	VFMADD231PS Z27, Z26, ACCM
#define ZSTORE(O, ACC, ACCM) VSUBPS ACCM, ACC, Z26; VMOVUPS Z26, O

#define ZDOTS1(j, k) ZDOT(j, k, (R8), Z16)
#define ZSETS1(j) ZSET(j, (R8), Z16, Z8, Z12)
#define ZADDS1(j) ZADD(j, (R8), Z16, Z8, Z12)
#define ZFLUSHES1 ZFLUSH((R8), Z8, Z12, Z0, Z4)
#define ZZEROS1 VPXORD Z16, Z16, Z16
#define ZZEROACC1 VPXORD Z0, Z0, Z0; VPXORD Z4, Z4, Z4
#define ZSTORES1 ZSTORE((DI), Z0, Z4)

#define ZDOTS2(j, k) ZDOT(j, k, (R8), Z16); ZDOT(j, k, (R8)(R9*1), Z17)
#define ZSETS2(j) ZSET(j, (R8), Z16, Z8, Z12); ZSET(j, (R8)(R9*1), Z17, Z9, Z13)
#define ZADDS2(j) ZADD(j, (R8), Z16, Z8, Z12); ZADD(j, (R8)(R9*1), Z17, Z9, Z13)
#define ZFLUSHES2 ZFLUSH((R8), Z8, Z12, Z0, Z4); ZFLUSH((R8)(R9*1), Z9, Z13, Z1, Z5)
#define ZZEROS2 VPXORD Z16, Z16, Z16; VPXORD Z17, Z17, Z17
#define ZZEROACC2 VPXORD Z0, Z0, Z0; VPXORD Z4, Z4, Z4; VPXORD Z1, Z1, Z1; VPXORD Z5, Z5, Z5
#define ZSTORES2 ZSTORE((DI), Z0, Z4); ZSTORE((DI)(R12*1), Z1, Z5)

#define ZDOTS4(j, k) ZDOT(j, k, (R8), Z16); ZDOT(j, k, (R8)(R9*1), Z17); ZDOT(j, k, (R8)(R9*2), Z18); ZDOT(j, k, (R8)(R10*1), Z19)
#define ZSETS4(j) ZSET(j, (R8), Z16, Z8, Z12); ZSET(j, (R8)(R9*1), Z17, Z9, Z13); ZSET(j, (R8)(R9*2), Z18, Z10, Z14); ZSET(j, (R8)(R10*1), Z19, Z11, Z15)
#define ZADDS4(j) ZADD(j, (R8), Z16, Z8, Z12); ZADD(j, (R8)(R9*1), Z17, Z9, Z13); ZADD(j, (R8)(R9*2), Z18, Z10, Z14); ZADD(j, (R8)(R10*1), Z19, Z11, Z15)
#define ZFLUSHES4 ZFLUSH((R8), Z8, Z12, Z0, Z4); ZFLUSH((R8)(R9*1), Z9, Z13, Z1, Z5); ZFLUSH((R8)(R9*2), Z10, Z14, Z2, Z6); ZFLUSH((R8)(R10*1), Z11, Z15, Z3, Z7)
#define ZZEROS4 VPXORD Z16, Z16, Z16; VPXORD Z17, Z17, Z17; VPXORD Z18, Z18, Z18; VPXORD Z19, Z19, Z19
#define ZZEROACC4 VPXORD Z0, Z0, Z0; VPXORD Z4, Z4, Z4; VPXORD Z1, Z1, Z1; VPXORD Z5, Z5, Z5; VPXORD Z2, Z2, Z2; VPXORD Z6, Z6, Z6; VPXORD Z3, Z3, Z3; VPXORD Z7, Z7, Z7
#define ZSTORES4 ZSTORE((DI), Z0, Z4); ZSTORE((DI)(R12*1), Z1, Z5); ZSTORE((DI)(R12*2), Z2, Z6); ZSTORE((DI)(R13*1), Z3, Z7)

// ZSUB(j, NIB, m, SETADD, FL): sub-block j of the super block at SI for
// m tokens: S from its eight dwords of quants, then I and M (set or
// added to), then FL (a flush or nothing).
#define ZSCALES(j) \
	VPMOVZXBD 64+16*(j)(SI), Z22; \
	VPMOVZXBD 192+16*(j)(SI), Z23; \
	VPSLLD $16, Z23, Z26; \
	VPORD Z26, Z23, Z23
#define ZK(j, k, NIB, DOTS) VMOVDQU64 320+64*(8*((j)/2)+(k))(SI), Z20; NIB; DOTS(j, k)
#define ZSUB(j, NIB, ZS, DOTS, SETADD, FL) \
	ZS; \
	ZK(j, 0, NIB, DOTS); ZK(j, 1, NIB, DOTS); ZK(j, 2, NIB, DOTS); ZK(j, 3, NIB, DOTS); \
	ZK(j, 4, NIB, DOTS); ZK(j, 5, NIB, DOTS); ZK(j, 6, NIB, DOTS); ZK(j, 7, NIB, DOTS); \
	ZSCALES(j); \
	SETADD(j); \
	FL

// The orders: gemv sets I and M at sub-block 0 and flushes after 7;
// gemm sets them at every even sub-block and flushes after every odd one.
#define ZGEMV(ZS, DOTS, SETS, ADDS, FL) \
	ZSUB(0, NIBLO, ZS, DOTS, SETS, NOP); ZSUB(1, NIBHI, ZS, DOTS, ADDS, NOP); \
	ZSUB(2, NIBLO, ZS, DOTS, ADDS, NOP); ZSUB(3, NIBHI, ZS, DOTS, ADDS, NOP); \
	ZSUB(4, NIBLO, ZS, DOTS, ADDS, NOP); ZSUB(5, NIBHI, ZS, DOTS, ADDS, NOP); \
	ZSUB(6, NIBLO, ZS, DOTS, ADDS, NOP); ZSUB(7, NIBHI, ZS, DOTS, ADDS, FL)
#define ZGEMM(ZS, DOTS, SETS, ADDS, FL) \
	ZSUB(0, NIBLO, ZS, DOTS, SETS, NOP); ZSUB(1, NIBHI, ZS, DOTS, ADDS, FL); \
	ZSUB(2, NIBLO, ZS, DOTS, SETS, NOP); ZSUB(3, NIBHI, ZS, DOTS, ADDS, FL); \
	ZSUB(4, NIBLO, ZS, DOTS, SETS, NOP); ZSUB(5, NIBHI, ZS, DOTS, ADDS, FL); \
	ZSUB(6, NIBLO, ZS, DOTS, SETS, NOP); ZSUB(7, NIBHI, ZS, DOTS, ADDS, FL)

// ZKERNEL is a whole kernel: groups, then super blocks, in ORDER, for the
// tokens the per-token macros name (lg, lb: its labels).
#define ZKERNEL(ORDER, ACC0, ZS, DOTS, SETS, ADDS, FL, STORES, lg, lb) \
	ARGS; \
	VPBROADCASTD q4kNibbles<>(SB), Z31; \
lg: \
	MOVQ R14, R8; \
	MOVQ DX, CX; \
	ACC0; \
lb: \
	VCVTPH2PS (SI), Z24; \
	VCVTPH2PS 32(SI), Z25; \
	ORDER(ZS, DOTS, SETS, ADDS, FL); \
	ADDQ $2368, SI; \
	ADDQ $292, R8; \
	DECQ CX; \
	JNZ lb; \
	STORES; \
	ADDQ $64, DI; \
	DECQ R11; \
	JNZ lg; \
	VZEROUPPER; \
	RET

// func q4KVNNIGemv1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KVNNIGemv1(SB), NOSPLIT, $0-56
	ZKERNEL(ZGEMV, ZZEROACC1, ZZEROS1, ZDOTS1, ZSETS1, ZADDS1, ZFLUSHES1, ZSTORES1, zgGemv1, zbGemv1)

// func q4KVNNIGemv2(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KVNNIGemv2(SB), NOSPLIT, $0-56
	ZKERNEL(ZGEMV, ZZEROACC2, ZZEROS2, ZDOTS2, ZSETS2, ZADDS2, ZFLUSHES2, ZSTORES2, zgGemv2, zbGemv2)

// func q4KVNNIGemv4(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KVNNIGemv4(SB), NOSPLIT, $0-56
	ZKERNEL(ZGEMV, ZZEROACC4, ZZEROS4, ZDOTS4, ZSETS4, ZADDS4, ZFLUSHES4, ZSTORES4, zgGemv4, zbGemv4)

// func q4KVNNIGemm1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KVNNIGemm1(SB), NOSPLIT, $0-56
	ZKERNEL(ZGEMM, ZZEROACC1, ZZEROS1, ZDOTS1, ZSETS1, ZADDS1, ZFLUSHES1, ZSTORES1, zgGemm1, zbGemm1)

// func q4KVNNIGemm2(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KVNNIGemm2(SB), NOSPLIT, $0-56
	ZKERNEL(ZGEMM, ZZEROACC2, ZZEROS2, ZDOTS2, ZSETS2, ZADDS2, ZFLUSHES2, ZSTORES2, zgGemm2, zbGemm2)

// func q4KVNNIGemm4(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KVNNIGemm4(SB), NOSPLIT, $0-56
	ZKERNEL(ZGEMM, ZZEROACC4, ZZEROS4, ZDOTS4, ZSETS4, ZADDS4, ZFLUSHES4, ZSTORES4, zgGemm4, zbGemm4)

// ---- AVX2: eight rows (half a group) a register, one or two tokens;
// the two halves of a group are two passes over its super blocks. S is
// summed in int16 (VPMADDUBSW of nibbles by a broadcast dword of values,
// eight a sub-block: at most 8·2·15·128 = 30720 in magnitude) and widened
// by VPMADDWD with ones. Y0/Y1 acc, Y2/Y3 accMin, Y4/Y5 I, Y6/Y7 M, Y8/Y9
// S of tokens 0 and 1; Y10 a dword of quants, Y11 its nibbles, Y12/Y13
// scratch, Y14 the scales as dwords, Y15 the minimums as [mn, mn] words.

#define YNIBLO VPAND q4kMask<>(SB), Y10, Y11
#define YNIBHI VPSRLW $4, Y10, Y11; VPAND q4kMask<>(SB), Y11, Y11
#define YDOT(j, k, B, S, SETADD) VPBROADCASTD 4+32*(j)+4*(k)B, Y12; VPMADDUBSW Y12, Y11, Y12; SETADD(Y12, S)
#define W16SET(X, S) VMOVDQA X, S
#define W16ADD(X, S) VPADDW X, S, S
#define YWIDEN(S) VPMADDWD q4kOnes<>(SB), S, S
#define YSET(j, B, S, I, M) VPMULLD Y14, S, I; VPBROADCASTD 260+4*(j)B, Y13; VPMADDWD Y13, Y15, M
#define YADD(j, B, S, I, M) VPMULLD Y14, S, Y12; VPADDD Y12, I, I; VPBROADCASTD 260+4*(j)B, Y13; VPMADDWD Y13, Y15, Y13; VPADDD Y13, M, M
#define YFLUSH(h, B, I, M, ACC, ACCM) \
	VBROADCASTSS B, Y12; \
	VCVTPH2PS 16*(h)(SI), Y13; \
	VMULPS Y12, Y13, Y13; \
	VCVTDQ2PS I, Y12; \
	VFMADD231PS Y13, Y12, ACC; \
	VBROADCASTSS B, Y12; \
	VCVTPH2PS 32+16*(h)(SI), Y13; \
	VMULPS Y12, Y13, Y13; \
	VCVTDQ2PS M, Y12; \
	VFMADD231PS Y13, Y12, ACCM
#define YSTORE(h, O, ACC, ACCM) VSUBPS ACCM, ACC, Y12; VMOVUPS Y12, 32*(h)O

#define YDOTS1(j, k, SETADD) YDOT(j, k, (R8), Y8, SETADD)
#define YWIDENS1 YWIDEN(Y8)
#define YSETS1(j) YSET(j, (R8), Y8, Y4, Y6)
#define YADDS1(j) YADD(j, (R8), Y8, Y4, Y6)
#define YFLUSHES1(h) YFLUSH(h, (R8), Y4, Y6, Y0, Y2)
#define YSTORES1(h) YSTORE(h, (DI), Y0, Y2)

#define YDOTS2(j, k, SETADD) YDOT(j, k, (R8), Y8, SETADD); YDOT(j, k, (R8)(R9*1), Y9, SETADD)
#define YWIDENS2 YWIDEN(Y8); YWIDEN(Y9)
#define YSETS2(j) YSET(j, (R8), Y8, Y4, Y6); YSET(j, (R8)(R9*1), Y9, Y5, Y7)
#define YADDS2(j) YADD(j, (R8), Y8, Y4, Y6); YADD(j, (R8)(R9*1), Y9, Y5, Y7)
#define YFLUSHES2(h) YFLUSH(h, (R8), Y4, Y6, Y0, Y2); YFLUSH(h, (R8)(R9*1), Y5, Y7, Y1, Y3)
#define YZEROACC2 VPXOR Y0, Y0, Y0; VPXOR Y2, Y2, Y2; VPXOR Y1, Y1, Y1; VPXOR Y3, Y3, Y3
#define YSTORES2(h) YSTORE(h, (DI), Y0, Y2); YSTORE(h, (DI)(R12*1), Y1, Y3)

#define YSCALES(j, h) \
	VPMOVZXBD 64+16*(j)+8*(h)(SI), Y14; \
	VPMOVZXBD 192+16*(j)+8*(h)(SI), Y15; \
	VPSLLD $16, Y15, Y12; \
	VPOR Y12, Y15, Y15
#define YK(j, k, h, NIB, DOTS, SETADD) VMOVDQU 320+64*(8*((j)/2)+(k))+32*(h)(SI), Y10; NIB; DOTS(j, k, SETADD)
#define YSUB(j, h, NIB, DOTS, WID, SETADD, FL) \
	YK(j, 0, h, NIB, DOTS, W16SET); YK(j, 1, h, NIB, DOTS, W16ADD); YK(j, 2, h, NIB, DOTS, W16ADD); YK(j, 3, h, NIB, DOTS, W16ADD); \
	YK(j, 4, h, NIB, DOTS, W16ADD); YK(j, 5, h, NIB, DOTS, W16ADD); YK(j, 6, h, NIB, DOTS, W16ADD); YK(j, 7, h, NIB, DOTS, W16ADD); \
	WID; \
	YSCALES(j, h); \
	SETADD(j); \
	FL

DATA q4kMask<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4kMask<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4kMask<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA q4kMask<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL q4kMask<>(SB), RODATA|NOPTR, $32
DATA q4kOnes<>+0(SB)/8, $0x0001000100010001
DATA q4kOnes<>+8(SB)/8, $0x0001000100010001
DATA q4kOnes<>+16(SB)/8, $0x0001000100010001
DATA q4kOnes<>+24(SB)/8, $0x0001000100010001
GLOBL q4kOnes<>(SB), RODATA|NOPTR, $32

#define YGEMV(h, DOTS, WID, SETS, ADDS, FL) \
	YSUB(0, h, YNIBLO, DOTS, WID, SETS, NOP); YSUB(1, h, YNIBHI, DOTS, WID, ADDS, NOP); \
	YSUB(2, h, YNIBLO, DOTS, WID, ADDS, NOP); YSUB(3, h, YNIBHI, DOTS, WID, ADDS, NOP); \
	YSUB(4, h, YNIBLO, DOTS, WID, ADDS, NOP); YSUB(5, h, YNIBHI, DOTS, WID, ADDS, NOP); \
	YSUB(6, h, YNIBLO, DOTS, WID, ADDS, NOP); YSUB(7, h, YNIBHI, DOTS, WID, ADDS, FL(h))
#define YGEMM(h, DOTS, WID, SETS, ADDS, FL) \
	YSUB(0, h, YNIBLO, DOTS, WID, SETS, NOP); YSUB(1, h, YNIBHI, DOTS, WID, ADDS, FL(h)); \
	YSUB(2, h, YNIBLO, DOTS, WID, SETS, NOP); YSUB(3, h, YNIBHI, DOTS, WID, ADDS, FL(h)); \
	YSUB(4, h, YNIBLO, DOTS, WID, SETS, NOP); YSUB(5, h, YNIBHI, DOTS, WID, ADDS, FL(h)); \
	YSUB(6, h, YNIBLO, DOTS, WID, SETS, NOP); YSUB(7, h, YNIBHI, DOTS, WID, ADDS, FL(h))

// YHALF runs half h of the group at BX over its super blocks in ORDER.
#define YHALF(h, ORDER, ACC0, DOTS, WID, SETS, ADDS, FL, STORES, lb) \
	MOVQ BX, SI; \
	MOVQ R14, R8; \
	MOVQ DX, CX; \
	ACC0; \
lb: \
	ORDER(h, DOTS, WID, SETS, ADDS, FL); \
	ADDQ $2368, SI; \
	ADDQ $292, R8; \
	DECQ CX; \
	JNZ lb; \
	STORES(h)

#define YKERNEL(ORDER, ACC0, DOTS, WID, SETS, ADDS, FL, STORES, lg, lb0, lb1) \
	ARGS; \
lg: \
	MOVQ SI, BX; \
	YHALF(0, ORDER, ACC0, DOTS, WID, SETS, ADDS, FL, STORES, lb0); \
	YHALF(1, ORDER, ACC0, DOTS, WID, SETS, ADDS, FL, STORES, lb1); \
	ADDQ $64, DI; \
	DECQ R11; \
	JNZ lg; \
	VZEROUPPER; \
	RET

// One token leaves a second register set free (token 1's of the
// two-token kernels), so the one-token kernels take both halves of a group
// in one pass over its super blocks, half 1 in that set: the group's bytes
// stream from memory once while both halves are computed, where two
// passes streamed them in the first and computed half of them twice over
// cache. Each half's registers go through the same steps in the same
// order as in a pass of its own.
#define YDOTSH1(j, k, SETADD) YDOT(j, k, (R8), Y9, SETADD)
#define YWIDENSH1 YWIDEN(Y9)
#define YSETSH1(j) YSET(j, (R8), Y9, Y5, Y7)
#define YADDSH1(j) YADD(j, (R8), Y9, Y5, Y7)
#define YFLUSHESH1(h) YFLUSH(h, (R8), Y5, Y7, Y1, Y3)
#define YSTORESH1(h) YSTORE(h, (DI), Y1, Y3)

#define YKERNELBOTH(ORDER, lg, lb) \
	ARGS; \
lg: \
	MOVQ R14, R8; \
	MOVQ DX, CX; \
	YZEROACC2; \
lb: \
	ORDER(0, YDOTS1, YWIDENS1, YSETS1, YADDS1, YFLUSHES1); \
	ORDER(1, YDOTSH1, YWIDENSH1, YSETSH1, YADDSH1, YFLUSHESH1); \
	ADDQ $2368, SI; \
	ADDQ $292, R8; \
	DECQ CX; \
	JNZ lb; \
	YSTORES1(0); \
	YSTORESH1(1); \
	ADDQ $64, DI; \
	DECQ R11; \
	JNZ lg; \
	VZEROUPPER; \
	RET

// func q4KAVX2Gemv1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KAVX2Gemv1(SB), NOSPLIT, $0-56
	YKERNELBOTH(YGEMV, ygGemv1, ybGemv1)

// func q4KAVX2Gemv2(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KAVX2Gemv2(SB), NOSPLIT, $0-56
	YKERNEL(YGEMV, YZEROACC2, YDOTS2, YWIDENS2, YSETS2, YADDS2, YFLUSHES2, YSTORES2, ygGemv2, yb0Gemv2, yb1Gemv2)

// func q4KAVX2Gemm1(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KAVX2Gemm1(SB), NOSPLIT, $0-56
	YKERNELBOTH(YGEMM, ygGemm1, ybGemm1)

// func q4KAVX2Gemm2(w, act *byte, astride, nb, ngroups int, out *float32, stride int)
TEXT ·q4KAVX2Gemm2(SB), NOSPLIT, $0-56
	YKERNEL(YGEMM, YZEROACC2, YDOTS2, YWIDENS2, YSETS2, YADDS2, YFLUSHES2, YSTORES2, ygGemm2, yb0Gemm2, yb1Gemm2)
