// y[i] = fma(a, v[i], y[i]) for n half-precision v: every value its own
// fused multiply-add (FMLA by element, FMADDS for the tail), so any
// grouping gives the Go loop's bits.

#include "textflag.h"
#include "neon_arm64.h"

// func axpyF16NEON(y *float32, a float32, v *byte, n int)
TEXT ·axpyF16NEON(SB), NOSPLIT, $0-32
	MOVD y+0(FP), R0
	FMOVS a+8(FP), F31
	MOVD v+16(FP), R1
	MOVD n+24(FP), R2
	LSR $3, R2, R3
	CBZ R3, tail
loop8:
	VLD1.P 16(R1), [V0.H8]
	FCVTL_4S(1, 0)
	FCVTL2_4S(2, 0)
	VLD1 (R0), [V3.S4, V4.S4]
	FMLA_4S_S(3, 1, 31, 0)
	FMLA_4S_S(4, 2, 31, 0)
	VST1.P [V3.S4, V4.S4], 32(R0)
	SUB $1, R3
	CBNZ R3, loop8
tail:
	AND $7, R2
	CBZ R2, done
loop1:
	LDF16(0, R1, R4, F1)
	ADD $2, R1
	FMOVS (R0), F3
	FMADDS F1, F3, F31, F3
	FMOVS.P F3, 4(R0)
	SUB $1, R2
	CBNZ R2, loop1
done:
	RET
