// Rope rotations (RopeRow), each pair's two results one fused multiply-add
// after rounding the other product, as the Go loop.

#include "textflag.h"

// The sign of the even lanes: -(x1·sin) in a normal-mode pair's first value.
DATA ropeneg<>+0(SB)/4, $0x80000000
DATA ropeneg<>+4(SB)/4, $0
DATA ropeneg<>+8(SB)/4, $0x80000000
DATA ropeneg<>+12(SB)/4, $0
DATA ropeneg<>+16(SB)/4, $0x80000000
DATA ropeneg<>+20(SB)/4, $0
DATA ropeneg<>+24(SB)/4, $0x80000000
DATA ropeneg<>+28(SB)/4, $0
GLOBL ropeneg<>(SB), RODATA|NOPTR, $32

// func ropeNormalAVX2(y, x, cs *float32, n int): n values (pairs side by
// side), a positive multiple of 8; cs holds cos, sin of each pair. With
// x = (x0, x1) a pair: y0 = fma(x0, cos, x1·(-sin)), y1 = fma(x0, sin,
// x1·cos), lane by lane as fma(x_even, cs, x_odd·swap(cs) with the even
// lanes negated).
TEXT ·ropeNormalAVX2(SB), NOSPLIT, $0-32
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ cs+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	VMOVUPS ropeneg<>(SB), Y15
nloop:
	VMOVUPS 0(SI), Y0
	VMOVUPS 0(DX), Y1 // cos, sin of four pairs
	VMOVSLDUP Y0, Y2 // x0 x0 of each pair
	VMOVSHDUP Y0, Y3 // x1 x1
	VPERMILPS $0xb1, Y1, Y4 // sin, cos
	VXORPS Y15, Y4, Y4 // -sin, cos
	VMULPS Y4, Y3, Y3 // x1·(-sin), x1·cos
	VFMADD231PS Y1, Y2, Y3 // + x0·(cos, sin), one rounding
	VMOVUPS Y3, 0(DI)
	ADDQ $32, SI
	ADDQ $32, DX
	ADDQ $32, DI
	DECQ CX
	JNZ nloop
	VZEROUPPER
	RET

// func ropeNeoxAVX2(y, x, cs *float32, half, n int): n pairs, a positive
// multiple of 8, pair p being values p and p+half.
TEXT ·ropeNeoxAVX2(SB), NOSPLIT, $0-40
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ cs+16(FP), DX
	MOVQ half+24(FP), R8
	SHLQ $2, R8 // bytes to a pair's second value
	MOVQ n+32(FP), CX
	SHRQ $3, CX
	MOVL $0x80000000, AX
	VMOVD AX, X15
	VPBROADCASTD X15, Y15
xloop:
	VMOVUPS 0(DX), Y0 // c0 s0 c1 s1 c2 s2 c3 s3
	VMOVUPS 32(DX), Y1 // c4 s4 .. c7 s7
	VSHUFPS $0x88, Y1, Y0, Y2 // c0 c1 c4 c5 | c2 c3 c6 c7
	VSHUFPS $0xdd, Y1, Y0, Y3
	VPERMPD $0xd8, Y2, Y2 // cos of the eight pairs
	VPERMPD $0xd8, Y3, Y3 // sin
	VMOVUPS 0(SI), Y4 // x0
	VMOVUPS (SI)(R8*1), Y5 // x1
	VMULPS Y3, Y5, Y6 // x1·sin
	VXORPS Y15, Y6, Y6 // -(x1·sin), a zero's sign too
	VFMADD231PS Y2, Y4, Y6 // x0·cos - x1·sin
	VMULPS Y2, Y5, Y7 // x1·cos
	VFMADD231PS Y3, Y4, Y7 // x0·sin + x1·cos
	VMOVUPS Y6, 0(DI)
	VMOVUPS Y7, (DI)(R8*1)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $64, DX
	DECQ CX
	JNZ xloop
	VZEROUPPER
	RET
