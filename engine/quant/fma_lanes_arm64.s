// acc[i % L] = fma(x[i], y[i], acc[i % L]) in order with NEON's FMLA (a
// fused multiply-add, as FMA32), the L lanes held in registers (V16-V19
// for 16 lanes, V16-V31 for 64): each lane's chain of multiply-adds is
// the Go loop's, so the results agree bit for bit. x comes as float32 or,
// in the F16 kernels, as halves widened exactly (FCVTL) first.

#include "textflag.h"
#include "neon_arm64.h"

#define ARGS \
	MOVD acc+0(FP), R0; \
	MOVD x+8(FP), R1; \
	MOVD y+16(FP), R2; \
	MOVD n+24(FP), R3

// X4 loads the next 16 x values into V0-V3; X4H the same from halves.
#define X4 \
	VLD1.P 64(R1), [V0.S4, V1.S4, V2.S4, V3.S4]

#define X4H \
	VLD1.P 32(R1), [V8.H8, V9.H8]; \
	FCVTL_4S(0, 8); \
	FCVTL2_4S(1, 8); \
	FCVTL_4S(2, 9); \
	FCVTL2_4S(3, 9)

// FMA4 multiplies V0-V3 by the next 16 y values into lanes a-d.
#define FMA4(a, b, c, d) \
	VLD1.P 64(R2), [V4.S4, V5.S4, V6.S4, V7.S4]; \
	VFMLA V4.S4, V0.S4, a.S4; \
	VFMLA V5.S4, V1.S4, b.S4; \
	VFMLA V6.S4, V2.S4, c.S4; \
	VFMLA V7.S4, V3.S4, d.S4

// STEP64 is one 64-value step of x (loaded by xs) times y into the lanes
// V16-V31.
#define STEP64(xs) \
	xs; \
	FMA4(V16, V17, V18, V19); \
	xs; \
	FMA4(V20, V21, V22, V23); \
	xs; \
	FMA4(V24, V25, V26, V27); \
	xs; \
	FMA4(V28, V29, V30, V31)

// LANES16 and LANES64 are the kernels' bodies, xs X4 or X4H.
#define LANES16(xs) \
	ARGS; \
	LSR $4, R3; \
	VLD1 (R0), [V16.S4, V17.S4, V18.S4, V19.S4]; \
loop16: \
	xs; \
	FMA4(V16, V17, V18, V19); \
	SUB $1, R3; \
	CBNZ R3, loop16; \
	VST1 [V16.S4, V17.S4, V18.S4, V19.S4], (R0); \
	RET

#define LANES64(xs) \
	ARGS; \
	LSR $6, R3; \
	MOVD R0, R4; \
	VLD1.P 64(R4), [V16.S4, V17.S4, V18.S4, V19.S4]; \
	VLD1.P 64(R4), [V20.S4, V21.S4, V22.S4, V23.S4]; \
	VLD1.P 64(R4), [V24.S4, V25.S4, V26.S4, V27.S4]; \
	VLD1 (R4), [V28.S4, V29.S4, V30.S4, V31.S4]; \
loop64: \
	STEP64(xs); \
	SUB $1, R3; \
	CBNZ R3, loop64; \
	MOVD R0, R4; \
	VST1.P [V16.S4, V17.S4, V18.S4, V19.S4], 64(R4); \
	VST1.P [V20.S4, V21.S4, V22.S4, V23.S4], 64(R4); \
	VST1.P [V24.S4, V25.S4, V26.S4, V27.S4], 64(R4); \
	VST1 [V28.S4, V29.S4, V30.S4, V31.S4], (R4); \
	RET

// func fmaLanes16NEON(acc, x, y *float32, n int)
TEXT ·fmaLanes16NEON(SB), NOSPLIT, $0-32
	LANES16(X4)

// func fmaLanes64NEON(acc, x, y *float32, n int)
TEXT ·fmaLanes64NEON(SB), NOSPLIT, $0-32
	LANES64(X4)

// func fmaLanes16F16NEON(acc *float32, x *byte, y *float32, n int)
TEXT ·fmaLanes16F16NEON(SB), NOSPLIT, $0-32
	LANES16(X4H)

// func fmaLanes64F16NEON(acc *float32, x *byte, y *float32, n int)
TEXT ·fmaLanes64F16NEON(SB), NOSPLIT, $0-32
	LANES64(X4H)

// func dotSteps64NEON(x, y *float32, n int) float32: vecSteps, n a
// positive multiple of 64: the 64 lanes from zero as fmaLanes64NEON forms
// them, then foldAcc4 (lanes 0-15 plus 32-47 and 16-31 plus 48-63, then
// those two) and SumLanes16 (lanes 8-15 plus 0-7, then SUM8) in
// registers, where the Go path stores the lanes and folds them in Go.
TEXT ·dotSteps64NEON(SB), NOSPLIT, $0-28
	MOVD x+0(FP), R1
	MOVD y+8(FP), R2
	MOVD n+16(FP), R3
	LSR $6, R3
	ZERO4(V16, V17, V18, V19)
	ZERO4(V20, V21, V22, V23)
	ZERO4(V24, V25, V26, V27)
	ZERO4(V28, V29, V30, V31)
steps:
	STEP64(X4)
	SUB $1, R3
	CBNZ R3, steps
	FADD_4S(16, 16, 24)
	FADD_4S(17, 17, 25)
	FADD_4S(18, 18, 26)
	FADD_4S(19, 19, 27)
	FADD_4S(20, 20, 28)
	FADD_4S(21, 21, 29)
	FADD_4S(22, 22, 30)
	FADD_4S(23, 23, 31)
	FADD_4S(16, 16, 20)
	FADD_4S(17, 17, 21)
	FADD_4S(18, 18, 22)
	FADD_4S(19, 19, 23)
	FADD_4S(16, 18, 16)
	FADD_4S(17, 19, 17)
	SUM8(16, 17, 18)
	FMOVS F16, ret+24(FP)
	RET
