// FOLD8 is hsum_float_8 (SumLanes8) of the eight float lanes of Y, whose
// low half is X, into the low lane of X0: the high half added to the low,
// then lanes 0+2 and 1+3, then those two (X1 is scratch). Shared by the
// one-column and four-column kernels, which must fold alike.
#define FOLD8(Y, X) \
	VEXTRACTF128 $1, Y, X1; \
	VADDPS X, X1, X0; \
	VMOVHLPS X0, X0, X1; \
	VADDPS X1, X0, X0; \
	VMOVSHDUP X0, X1; \
	VADDSS X1, X0, X0

// SUMLANES16 is SumLanes16 of the sixteen lanes in Y0 (0-7) and Y1
// (8-15), into the low lane of X0 (Y2 and X1 scratch).
#define SUMLANES16 \
	VADDPS Y0, Y1, Y2; \
	FOLD8(Y2, X2)

// ZERO64 clears the 64 float lanes Y0-Y7: four 16-lane accumulators,
// two registers each, as vecSteps' acc.
#define ZERO64 \
	VXORPS Y0, Y0, Y0; \
	VXORPS Y1, Y1, Y1; \
	VXORPS Y2, Y2, Y2; \
	VXORPS Y3, Y3, Y3; \
	VXORPS Y4, Y4, Y4; \
	VXORPS Y5, Y5, Y5; \
	VXORPS Y6, Y6, Y6; \
	VXORPS Y7, Y7, Y7

// FOLD64 is FoldLanes64 of the lanes in Y0-Y7 (foldAcc4: lanes 0-15 plus
// 32-47 and 16-31 plus 48-63, then those two; then SUMLANES16), into the
// low lane of X0.
#define FOLD64 \
	VADDPS Y4, Y0, Y0; \
	VADDPS Y5, Y1, Y1; \
	VADDPS Y6, Y2, Y2; \
	VADDPS Y7, Y3, Y3; \
	VADDPS Y2, Y0, Y0; \
	VADDPS Y3, Y1, Y1; \
	SUMLANES16
