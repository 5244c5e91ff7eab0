// NEON dot kernels for arm64. Block sums are exact int32 whatever the
// order; the float part follows the pure-Go kernel each one stands for
// (the comment above it names it), so results are bit-identical to it.
// Go's assembler lacks the signed widening multiplies and several other
// NEON forms: neon_arm64.h emits them as WORDs.
//
// dotQ4_0NEON (dotQ4_0, lanes4 order): F16-F19 are the four block lanes
// and F20 the folded sum (V0-V5 and F8-F10 are scratch, V14/V15
// constants).

#include "textflag.h"
#include "neon_arm64.h"

// Q4_0_TERM is dotQ4_0's term of the block at xo(R0), activation block
// at yo(R1): the exact int dot converted to float, times the weight
// scale, times the activation scale (each product rounded, as the Go
// code's float32 conversions make it), added to lane F.
#define Q4_0_TERM(xo, yo, F) \
	ADD $(xo+2), R0, R5; \
	VLD1 (R5), [V1.B16]; \
	Q4_0_VALUES(V15, V14); \
	ADD $(yo+2), R1, R6; \
	VLD1 (R6), [V2.B16, V3.B16]; \
	SMULL_8H(4, 0, 2); \
	SMLAL_8H(4, 1, 3); \
	SMULL2_8H(5, 0, 2); \
	SMLAL2_8H(5, 1, 3); \
	SADDLP_4S(4, 4); \
	SADALP_4S(4, 5); \
	VADDV V4.S4, V4; \
	VMOV V4.S[0], R7; \
	SCVTFWS R7, F8; \
	LDF16(xo, R0, R7, F9); \
	LDF16(yo, R1, R7, F10); \
	FMULS F9, F8, F8; \
	FMULS F10, F8, F8; \
	FADDS F8, F, F

// func dotQ4_0NEON(w, a *byte, nb int) float32
TEXT ·dotQ4_0NEON(SB), NOSPLIT, $0-28
	MOVD w+0(FP), R0
	MOVD a+8(FP), R1
	MOVD nb+16(FP), R2
	VMOVI $15, V15.B16
	VMOVI $8, V14.B16
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	LSR $2, R2, R3
	CBZ R3, fold
loop4:
	Q4_0_TERM(0, 0, F16)
	Q4_0_TERM(18, 34, F17)
	Q4_0_TERM(36, 68, F18)
	Q4_0_TERM(54, 102, F19)
	ADD $72, R0
	ADD $136, R1
	SUB $1, R3
	CBNZ R3, loop4
fold:
	FADDS F17, F16, F16
	FADDS F19, F18, F18
	FADDS F18, F16, F20
	AND $3, R2
	CBZ R2, done
loop1:
	Q4_0_TERM(0, 0, F20)
	ADD $18, R0
	ADD $34, R1
	SUB $1, R2
	CBNZ R2, loop1
done:
	FMOVS F20, ret+24(FP)
	RET
