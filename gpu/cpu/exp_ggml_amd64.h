// quant.ExpGGML (llama.cpp's ggml_v_expf as its AVX-512 build runs it)
// eight lanes at a time with AVX2, operation by operation: the same fused
// multiply-adds and constants, and vscalefps done exactly as the Go code
// does it (j·2^n in float64, rounded once to float32, which also rounds
// subnormal results as the instruction does), so every lane equals the Go
// function's result bit for bit. Included by each kernel that takes exp;
// the constants are the including file's own (<> symbols are file-local).

#define K(i) expK<>+(4*i)(SB)
DATA expK<>+0(SB)/4, $0x4b400000  // r = 0x1.8p23
DATA expK<>+4(SB)/4, $0x3fb8aa3b  // log2(e)
DATA expK<>+8(SB)/4, $0x3f317200  // ln2 high
DATA expK<>+12(SB)/4, $0x35bfbe8e // ln2 low
DATA expK<>+16(SB)/4, $0x3c072010 // polynomial, highest first
DATA expK<>+20(SB)/4, $0x3d2b9f17
DATA expK<>+24(SB)/4, $0x3e2aaf33
DATA expK<>+28(SB)/4, $0x3efffedb
DATA expK<>+32(SB)/4, $0x3f7ffff6
DATA expK<>+36(SB)/4, $0x3f800000 // 1
DATA expK<>+40(SB)/4, $0x43400000 // 192
DATA expK<>+44(SB)/4, $0x7fffffff // abs mask
DATA expK<>+48(SB)/4, $0x7f800000 // +Inf
DATA expK<>+52(SB)/4, $0
DATA expK<>+56(SB)/8, $1023       // float64 exponent bias
GLOBL expK<>(SB), RODATA|NOPTR, $64

// EXPINIT loads what EXPGGML keeps in registers: Y12 the float64 exponent
// bias.
#define EXPINIT VPBROADCASTQ K(14), Y12

// SCALE2N(jx, nx, out): out (4 floats) = jx (4 floats) · 2^nx (4 int32),
// in float64 then rounded once.
#define SCALE2N(jx, nx, out) \
	VCVTPS2PD jx, Y10; \
	VPMOVSXDQ nx, Y11; \
	VPADDQ Y12, Y11, Y11; \
	VPSLLQ $52, Y11, Y11; \
	VMULPD Y11, Y10, Y10; \
	VCVTPD2PSY Y10, out

// EXPGGML leaves exp(Y14) in Y13 (Y0 is zeroed; Y0-Y11 scratch; Y12 as
// EXPINIT left it; Y14 and Y15 kept).
#define EXPGGML \
	VXORPS Y0, Y0, Y0; \
	VBROADCASTSS K(0), Y1; \
	VBROADCASTSS K(1), Y2; \
	VFMADD231PS Y2, Y14, Y1; \
	VBROADCASTSS K(0), Y2; \
	VSUBPS Y2, Y1, Y3; \
	VMOVAPS Y14, Y4; \
	VBROADCASTSS K(2), Y2; \
	VFNMADD231PS Y2, Y3, Y4; \
	VBROADCASTSS K(3), Y2; \
	VFNMADD231PS Y2, Y3, Y4; \
	VMULPS Y4, Y4, Y5; \
	VBROADCASTSS K(5), Y6; \
	VBROADCASTSS K(4), Y2; \
	VFMADD231PS Y2, Y4, Y6; \
	VBROADCASTSS K(7), Y7; \
	VBROADCASTSS K(6), Y2; \
	VFMADD231PS Y2, Y4, Y7; \
	VFMADD231PS Y5, Y6, Y7; \
	VBROADCASTSS K(9), Y8; \
	VBROADCASTSS K(8), Y2; \
	VFMADD231PS Y2, Y4, Y8; \
	VFMADD231PS Y5, Y7, Y8; \
	VCVTPS2DQ Y3, Y9; \
	SCALE2N(X8, X9, X13); \
	VEXTRACTF128 $1, Y8, X8; \
	VEXTRACTI128 $1, Y9, X9; \
	SCALE2N(X8, X9, X8); \
	VINSERTF128 $1, X8, Y13, Y13; \
	VBROADCASTSS K(11), Y2; \
	VANDPS Y2, Y3, Y2; \
	VBROADCASTSS K(10), Y5; \
	VCMPPS $0x1e, Y5, Y2, Y2; \
	VCMPPS $0x12, Y0, Y3, Y5; \
	VBROADCASTSS K(12), Y6; \
	VBLENDVPS Y5, Y0, Y6, Y6; \
	VBLENDVPS Y2, Y6, Y13, Y13
