// z = silu(x)·y, eight values a step, following expf and silu in mathf.go
// operation by operation (separate multiplies and adds, the same
// constants, the same rounding of the exponent and the same clamps), so
// the results equal the Go loop's bit for bit.

#include "textflag.h"

#define K(i) swigluK<>+(4*i)(SB)
DATA swigluK<>+0(SB)/4, $0x80000000  // sign bit
DATA swigluK<>+4(SB)/4, $0x3fb8aa3b  // log2e
DATA swigluK<>+8(SB)/4, $0x3f000000  // 0.5
DATA swigluK<>+12(SB)/4, $0x3f318000 // c1 = 0.693359375
DATA swigluK<>+16(SB)/4, $0xb95e8083 // c2 = -2.12194440e-4
DATA swigluK<>+20(SB)/4, $0x39506967 // 1.9875691500e-4
DATA swigluK<>+24(SB)/4, $0x3ab743ce // 1.3981999507e-3
DATA swigluK<>+28(SB)/4, $0x3c088908 // 8.3334519073e-3
DATA swigluK<>+32(SB)/4, $0x3d2aa9c1 // 4.1665795894e-2
DATA swigluK<>+36(SB)/4, $0x3e2aaaaa // 1.6666665459e-1
DATA swigluK<>+40(SB)/4, $0x3f000000 // 5.0000001201e-1
DATA swigluK<>+44(SB)/4, $0x3f800000 // 1
DATA swigluK<>+48(SB)/4, $0x42b17217 // 88.72283
DATA swigluK<>+52(SB)/4, $0xc2aeac4f // -87.33654
DATA swigluK<>+56(SB)/4, $0x7f800000 // +Inf
DATA swigluK<>+60(SB)/4, $127
DATA swigluK<>+64(SB)/4, $128
DATA swigluK<>+68(SB)/4, $-126
GLOBL swigluK<>(SB), RODATA|NOPTR, $72

// func swigluAVX2(x, y, z *float32, n int)
TEXT ·swigluAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ y+8(FP), DX
	MOVQ z+16(FP), DI
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JZ done
loop:
	VMOVUPS (SI), Y15
	VBROADCASTSS K(0), Y0
	VXORPS Y0, Y15, Y14       // t = -x
	VBROADCASTSS K(1), Y1
	VMULPS Y1, Y14, Y1        // fn = t·log2e
	VANDPS Y0, Y1, Y2
	VBROADCASTSS K(2), Y3
	VORPS Y3, Y2, Y2          // ±0.5 with fn's sign
	VADDPS Y2, Y1, Y1
	VCVTTPS2DQ Y1, Y13        // n
	VCVTDQ2PS Y13, Y1         // fn rounded half away from zero
	VBROADCASTSS K(3), Y2
	VMULPS Y2, Y1, Y2
	VSUBPS Y2, Y14, Y4        // r = t - fn·c1
	VBROADCASTSS K(4), Y2
	VMULPS Y2, Y1, Y2
	VSUBPS Y2, Y4, Y4         // r -= fn·c2
	VBROADCASTSS K(5), Y5     // p
	VMULPS Y4, Y5, Y5
	VBROADCASTSS K(6), Y2
	VADDPS Y2, Y5, Y5
	VMULPS Y4, Y5, Y5
	VBROADCASTSS K(7), Y2
	VADDPS Y2, Y5, Y5
	VMULPS Y4, Y5, Y5
	VBROADCASTSS K(8), Y2
	VADDPS Y2, Y5, Y5
	VMULPS Y4, Y5, Y5
	VBROADCASTSS K(9), Y2
	VADDPS Y2, Y5, Y5
	VMULPS Y4, Y5, Y5
	VBROADCASTSS K(10), Y2
	VADDPS Y2, Y5, Y5
	VMULPS Y4, Y5, Y5         // p·r
	VMULPS Y4, Y5, Y5         // ·r
	VADDPS Y4, Y5, Y5         // + r
	VBROADCASTSS K(11), Y6
	VADDPS Y6, Y5, Y5         // + 1
	// 2^n, or for n = -127 2^(n+1) then ·0.5.
	VPBROADCASTD K(15), Y7
	VPADDD Y7, Y13, Y8
	VPSLLD $23, Y8, Y8
	VMULPS Y8, Y5, Y9
	VPBROADCASTD K(16), Y7
	VPADDD Y7, Y13, Y8
	VPSLLD $23, Y8, Y8
	VMULPS Y8, Y5, Y10
	VBROADCASTSS K(2), Y3
	VMULPS Y3, Y10, Y10
	VPBROADCASTD K(17), Y7
	VPCMPGTD Y13, Y7, Y11     // -126 > n
	VBLENDVPS Y11, Y10, Y9, Y9
	// Clamps: t > 88.72 gives +Inf, t < -87.34 zero, NaN itself.
	VBROADCASTSS K(12), Y7
	VCMPPS $0x1e, Y7, Y14, Y11
	VBROADCASTSS K(14), Y7
	VBLENDVPS Y11, Y7, Y9, Y9
	VBROADCASTSS K(13), Y7
	VCMPPS $0x11, Y7, Y14, Y11
	VXORPS Y7, Y7, Y7
	VBLENDVPS Y11, Y7, Y9, Y9
	VCMPPS $0x03, Y14, Y14, Y11
	VBLENDVPS Y11, Y14, Y9, Y9
	// silu(x)·y = x / (1 + e) · y
	VADDPS Y6, Y9, Y9
	VDIVPS Y9, Y15, Y9
	VMULPS (DX), Y9, Y9
	VMOVUPS Y9, (DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ loop
done:
	VZEROUPPER
	RET
