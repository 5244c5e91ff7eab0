// z = silu(x)·y, eight values a step, following siluGGML and expGGML
// (expf_ggml.go) operation by operation: the same fused multiply-adds and
// constants, and vscalefps done exactly as the Go code does it (j·2^n in
// float64, rounded once to float32), so the results equal the Go loop's
// bit for bit.

#include "textflag.h"

#define K(i) swigluK<>+(4*i)(SB)
DATA swigluK<>+0(SB)/4, $0x4b400000  // r = 0x1.8p23
DATA swigluK<>+4(SB)/4, $0x3fb8aa3b  // log2(e)
DATA swigluK<>+8(SB)/4, $0x3f317200  // ln2 high
DATA swigluK<>+12(SB)/4, $0x35bfbe8e // ln2 low
DATA swigluK<>+16(SB)/4, $0x3c072010 // polynomial, highest first
DATA swigluK<>+20(SB)/4, $0x3d2b9f17
DATA swigluK<>+24(SB)/4, $0x3e2aaf33
DATA swigluK<>+28(SB)/4, $0x3efffedb
DATA swigluK<>+32(SB)/4, $0x3f7ffff6
DATA swigluK<>+36(SB)/4, $0x3f800000 // 1
DATA swigluK<>+40(SB)/4, $0x43400000 // 192
DATA swigluK<>+44(SB)/4, $0x7fffffff // abs mask
DATA swigluK<>+48(SB)/4, $0x7f800000 // +Inf
DATA swigluK<>+52(SB)/4, $0
DATA swigluK<>+56(SB)/8, $1023       // float64 exponent bias
GLOBL swigluK<>(SB), RODATA|NOPTR, $64

// SCALE2N(jx, nx, out): out (4 floats) = jx (4 floats) · 2^nx (4 int32),
// in float64 then rounded once.
#define SCALE2N(jx, nx, out) \
	VCVTPS2PD jx, Y10; \
	VPMOVSXDQ nx, Y11; \
	VPADDQ Y12, Y11, Y11; \
	VPSLLQ $52, Y11, Y11; \
	VMULPD Y11, Y10, Y10; \
	VCVTPD2PSY Y10, out

// func swigluAVX2(x, y, z *float32, n int)
TEXT ·swigluAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DX
	MOVQ z+16(FP), DI
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JZ done
	VPBROADCASTQ K(14), Y12
loop:
	VMOVUPS (SI), Y15
	VXORPS Y0, Y0, Y0
	VSUBPS Y15, Y0, Y14       // t = 0 - x
	VBROADCASTSS K(0), Y1     // z = fma(t, log2e, r)
	VBROADCASTSS K(1), Y2
	VFMADD231PS Y2, Y14, Y1
	VBROADCASTSS K(0), Y2
	VSUBPS Y2, Y1, Y3         // n = z - r
	VMOVAPS Y14, Y4           // b = fnma(n, ln2 high, t)
	VBROADCASTSS K(2), Y2
	VFNMADD231PS Y2, Y3, Y4
	VBROADCASTSS K(3), Y2     // b = fnma(n, ln2 low, b)
	VFNMADD231PS Y2, Y3, Y4
	VMULPS Y4, Y4, Y5         // u = b·b
	VBROADCASTSS K(5), Y6     // t1 = fma(c7, b, c6)
	VBROADCASTSS K(4), Y2
	VFMADD231PS Y2, Y4, Y6
	VBROADCASTSS K(7), Y7     // t2 = fma(c5, b, c4)
	VBROADCASTSS K(6), Y2
	VFMADD231PS Y2, Y4, Y7
	VFMADD231PS Y5, Y6, Y7    // t2 = fma(t1, u, t2)
	VBROADCASTSS K(9), Y8     // t4 = fma(c3, b, 1)
	VBROADCASTSS K(8), Y2
	VFMADD231PS Y2, Y4, Y8
	VFMADD231PS Y5, Y7, Y8    // j = fma(t2, u, t4)
	// e = j·2^n
	VCVTPS2DQ Y3, Y9
	SCALE2N(X8, X9, X13)
	VEXTRACTF128 $1, Y8, X8
	VEXTRACTI128 $1, Y9, X9
	SCALE2N(X8, X9, X8)
	VINSERTF128 $1, X8, Y13, Y13
	// |n| > 192: e = 0 where n <= 0, +Inf elsewhere
	VBROADCASTSS K(11), Y2
	VANDPS Y2, Y3, Y2
	VBROADCASTSS K(10), Y5
	VCMPPS $0x1e, Y5, Y2, Y2  // |n| > 192 (ordered)
	VCMPPS $0x12, Y0, Y3, Y5  // n <= 0 (ordered)
	VBROADCASTSS K(12), Y6
	VBLENDVPS Y5, Y0, Y6, Y6  // 0 where n <= 0, else +Inf
	VBLENDVPS Y2, Y6, Y13, Y13
	// silu(x)·y = x / (1 + e) · y
	VBROADCASTSS K(9), Y2
	VADDPS Y2, Y13, Y13
	VDIVPS Y13, Y15, Y13
	VMULPS (DX), Y13, Y13
	VMOVUPS Y13, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ loop
done:
	VZEROUPPER
	RET
