// Q8_0 activation rounding (quantizeActQ8_0), one 32-value block a step:
// the largest magnitude, d = amax/127 stored as a half (rounded to nearest
// even), each value times id = 127/amax (0 for an all-zero block) rounded
// to the nearest integer, ties to even. Every step is one correctly
// rounded float32 operation, as in the Go loop, so the bytes agree.

#include "textflag.h"

// The dword order VPACKSSDW and VPACKSSWB leave the 32 bytes in, undone.
DATA q8perm<>+0(SB)/4, $0
DATA q8perm<>+4(SB)/4, $4
DATA q8perm<>+8(SB)/4, $1
DATA q8perm<>+12(SB)/4, $5
DATA q8perm<>+16(SB)/4, $2
DATA q8perm<>+20(SB)/4, $6
DATA q8perm<>+24(SB)/4, $3
DATA q8perm<>+28(SB)/4, $7
GLOBL q8perm<>(SB), RODATA|NOPTR, $32

// func quantizeQ8_0AVX2(dst *byte, src *float32, nb int): nb > 0 blocks.
TEXT ·quantizeQ8_0AVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ nb+16(FP), CX
	MOVL $0x7fffffff, AX
	VMOVD AX, X15
	VPBROADCASTD X15, Y15
	MOVL $0x42fe0000, AX // 127.0
	VMOVD AX, X14
	VMOVDQU q8perm<>(SB), Y13
block:
	VMOVUPS 0(SI), Y0
	VMOVUPS 32(SI), Y1
	VMOVUPS 64(SI), Y2
	VMOVUPS 96(SI), Y3
	VANDPS Y15, Y0, Y4
	VANDPS Y15, Y1, Y5
	VANDPS Y15, Y2, Y6
	VANDPS Y15, Y3, Y7
	VMAXPS Y5, Y4, Y4
	VMAXPS Y7, Y6, Y6
	VMAXPS Y6, Y4, Y4
	VEXTRACTF128 $1, Y4, X5
	VMAXPS X5, X4, X4
	VMOVHLPS X4, X4, X5
	VMAXPS X5, X4, X4
	VMOVSHDUP X4, X5
	VMAXSS X5, X4, X4 // amax
	VDIVSS X14, X4, X8 // d = amax / 127
	VCVTPS2PH $0, X8, X9
	VMOVD X9, AX
	MOVW AX, 0(DI)
	VDIVSS X4, X14, X10 // 127 / amax
	VXORPS X11, X11, X11
	VCMPSS $0, X11, X4, X12 // amax == 0
	VANDNPS X10, X12, X10 // id, 0 for an all-zero block
	VBROADCASTSS X10, Y10
	VMULPS Y10, Y0, Y0
	VMULPS Y10, Y1, Y1
	VMULPS Y10, Y2, Y2
	VMULPS Y10, Y3, Y3
	VROUNDPS $0, Y0, Y0
	VROUNDPS $0, Y1, Y1
	VROUNDPS $0, Y2, Y2
	VROUNDPS $0, Y3, Y3
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VCVTPS2DQ Y2, Y2
	VCVTPS2DQ Y3, Y3
	VPACKSSDW Y1, Y0, Y0
	VPACKSSDW Y3, Y2, Y2
	VPACKSSWB Y2, Y0, Y0
	VPERMD Y0, Y13, Y0
	VMOVDQU Y0, 2(DI)
	ADDQ $128, SI
	ADDQ $34, DI
	DECQ CX
	JNZ block
	VZEROUPPER
	RET
