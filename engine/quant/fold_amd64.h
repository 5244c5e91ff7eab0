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
