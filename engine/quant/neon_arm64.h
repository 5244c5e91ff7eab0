// Encodings of the NEON instructions Go's assembler does not know (the
// signed widening multiplies and adds, vector int-to-float conversion,
// element-indexed forms). Arguments are register numbers: d, n, m for
// Vd, Vn, Vm; i an element index. Each is named after the instruction and
// its arrangement, as in the Arm reference.

#define RDNM(d, n, m) ((d) | (n)<<5 | (m)<<16)

// SMULL Vd.8H, Vn.8B, Vm.8B and SMULL2 (the high eight bytes).
#define SMULL_8H(d, n, m) WORD $(0x0e20c000 | RDNM(d, n, m))
#define SMULL2_8H(d, n, m) WORD $(0x4e20c000 | RDNM(d, n, m))

// SMLAL Vd.8H, Vn.8B, Vm.8B and SMLAL2: the same, added to Vd.
#define SMLAL_8H(d, n, m) WORD $(0x0e208000 | RDNM(d, n, m))
#define SMLAL2_8H(d, n, m) WORD $(0x4e208000 | RDNM(d, n, m))

// SMULL Vd.4S, Vn.4H, Vm.4H and SMULL2 (the high four halves).
#define SMULL_4S(d, n, m) WORD $(0x0e60c000 | RDNM(d, n, m))
#define SMULL2_4S(d, n, m) WORD $(0x4e60c000 | RDNM(d, n, m))

// SMLAL Vd.4S, Vn.4H, Vm.4H and SMLAL2.
#define SMLAL_4S(d, n, m) WORD $(0x0e608000 | RDNM(d, n, m))
#define SMLAL2_4S(d, n, m) WORD $(0x4e608000 | RDNM(d, n, m))

// The by-element forms Vd.4S (+)= Vn.4H (or its high half) × Vm.H[i];
// m must be V0-V15, i is split into the H:L:M bits. (Go's assembler
// binds & tighter than >>: hence every parenthesis.)
#define HIDX(m, i) ((m)<<16 | ((i)&1)<<20 | (((i)>>1)&1)<<21 | (((i)>>2)&1)<<11)
#define SMULL_4S_H(d, n, m, i) WORD $(0x0f40a000 | (d) | (n)<<5 | HIDX(m, i))
#define SMLAL_4S_H(d, n, m, i) WORD $(0x0f402000 | (d) | (n)<<5 | HIDX(m, i))
#define SMLAL2_4S_H(d, n, m, i) WORD $(0x4f402000 | (d) | (n)<<5 | HIDX(m, i))

// SADDLP Vd.4S, Vn.8H: adjacent int16 pairs widened and added.
#define SADDLP_4S(d, n) WORD $(0x4e602800 | (d) | (n)<<5)

// SADALP Vd.4S, Vn.8H: the same, added to Vd.
#define SADALP_4S(d, n) WORD $(0x4e606800 | (d) | (n)<<5)

// ADDP: adjacent pairs of Vn, then of Vm.
#define ADDP_8H(d, n, m) WORD $(0x4e60bc00 | RDNM(d, n, m))
#define ADDP_4S(d, n, m) WORD $(0x4ea0bc00 | RDNM(d, n, m))

// SXTL/UXTL Vd.8H from the low (or, 2, high) eight bytes of Vn.
#define SXTL_8H(d, n) WORD $(0x0f08a400 | (d) | (n)<<5)
#define SXTL2_8H(d, n) WORD $(0x4f08a400 | (d) | (n)<<5)
#define UXTL_8H(d, n) WORD $(0x2f08a400 | (d) | (n)<<5)
#define UXTL2_8H(d, n) WORD $(0x6f08a400 | (d) | (n)<<5)

// SCVTF Vd.4S, Vn.4S.
#define SCVTF_4S(d, n) WORD $(0x4e21d800 | (d) | (n)<<5)

// FCVTL Vd.4S, Vn.4H (and FCVTL2 from the high four): f16 to f32.
#define FCVTL_4S(d, n) WORD $(0x0e217800 | (d) | (n)<<5)
#define FCVTL2_4S(d, n) WORD $(0x4e217800 | (d) | (n)<<5)

// FMUL Vd.4S, Vn.4S, Vm.S[i].
#define FMUL_4S_S(d, n, m, i) WORD $(0x4f809000 | RDNM(d, n, m) | ((i)&1)<<21 | (((i)>>1)&1)<<11)

// FADD Vd.4S, Vn.4S, Vm.4S.
#define FADD_4S(d, n, m) WORD $(0x4e20d400 | RDNM(d, n, m))

// FMLA Vd.4S, Vn.4S, Vm.S[i]: a fused multiply-add, as FMA32.
#define FMLA_4S_S(d, n, m, i) WORD $(0x4f801000 | RDNM(d, n, m) | ((i)&1)<<21 | (((i)>>1)&1)<<11)

// EXT Vd.16B, Vn.16B, Vn.16B, #8: Vn's halves swapped.
#define SWAPHALVES(d, n) WORD $(0x6e004000 | RDNM(d, n, n) | 8<<11)

// FMUL Vd.4S, Vn.4S, Vm.4S.
#define FMUL_4S(d, n, m) WORD $(0x6e20dc00 | RDNM(d, n, m))

// FADDP Sd, Vn.2S: lane 0 + lane 1.
#define FADDP_S(d, n) WORD $(0x7e30d800 | (d) | (n)<<5)

// FOLD4 leaves (v0+v2)+(v1+v3) of Vv's float lanes in its lane 0 (Vt is
// scratch): the last two steps of hsum_float_8 (SumLanes8) and of an SSE
// hsum, in their order.
#define FOLD4(v, t) \
	SWAPHALVES(t, v); \
	FADD_4S(v, v, t); \
	FADDP_S(v, v)

// SUM8 is SumLanes8 of the eight float lanes lo (0-3) and hi (4-7), left
// in lane 0 of lo: the high half added to the low, then FOLD4.
#define SUM8(lo, hi, t) \
	FADD_4S(lo, hi, lo); \
	FOLD4(lo, t)

// QUADS sums the 32 products q·y of int8 vectors q0, q1 (values 0-15,
// 16-31) and y0, y1 by lanes of four consecutive values into eight int16
// lanes of Vout (t1-t3 scratch, out distinct from the inputs). The
// quad sums must fit int16: |q| <= 63 and |y| <= 128 do.
#define QUADS(q0, q1, y0, y1, out, t1, t2, t3) \
	SMULL_8H(out, q0, y0); \
	SMULL2_8H(t1, q0, y0); \
	SMULL_8H(t2, q1, y1); \
	SMULL2_8H(t3, q1, y1); \
	ADDP_8H(out, out, t1); \
	ADDP_8H(t2, t2, t3); \
	ADDP_8H(out, out, t2)

// LDF16 converts the f16 at off(base) into Fd (via Rt): a two-byte load,
// so that it never reads past a block.
#define LDF16(off, base, Rt, Fd) \
	MOVHU off(base), Rt; \
	FMOVS Rt, Fd; \
	FCVTHS Fd, Fd

// Q4_0_VALUES turns the 16 Q4_0 bytes in V1 into values 0-15 (low
// nibbles) in V0 and 16-31 (high nibbles) in V1, less 8; m15 and m8 hold
// 15 and 8 in every byte.
#define Q4_0_VALUES(m15, m8) \
	VAND m15.B16, V1.B16, V0.B16; \
	VUSHR $4, V1.B16, V1.B16; \
	VSUB m8.B16, V0.B16, V0.B16; \
	VSUB m8.B16, V1.B16, V1.B16

// SDOT Vd.4S, Vn.16B, Vm.4B[i] (dotprod): lane j of d += the dot of bytes
// 4j..4j+3 of n with bytes 4i..4i+3 of m, all signed.
#define SDOT_4S_B(d, n, m, i) WORD $(0x4f80e000 | RDNM(d, n, m) | ((i)&1)<<21 | (((i)>>1)&1)<<11)

// SDOT Vd.4S, Vn.16B, Vm.16B (dotprod): lane j of d += the dot of bytes
// 4j..4j+3 of n and m.
#define SDOT_4S(d, n, m) WORD $(0x4e809400 | RDNM(d, n, m))

// ZERO4 clears four vector registers.
#define ZERO4(a, b, c, d) \
	VEOR a.B16, a.B16, a.B16; \
	VEOR b.B16, b.B16, b.B16; \
	VEOR c.B16, c.B16, c.B16; \
	VEOR d.B16, d.B16, d.B16

// SMMLA Vd.4S, Vn.16B, Vm.16B (i8mm): Vn and Vm each hold two rows of
// eight signed bytes; lane 2i+j of d += the dot of n's row i and m's row
// j.
#define SMMLA(d, n, m) WORD $(0x4e80a400 | RDNM(d, n, m))

// ZIP1/ZIP2 Vd.4S: the low (high) two lanes of n and m, interleaved
// (n0, m0, n1, m1; n2, m2, n3, m3). UZP1/UZP2 Vd.4S: the even (odd)
// lanes of n, then of m. ZIP1/ZIP2 Vd.2D: the low (high) halves of n
// and m.
#define ZIP1_4S(d, n, m) WORD $(0x4e803800 | RDNM(d, n, m))
#define ZIP2_4S(d, n, m) WORD $(0x4e807800 | RDNM(d, n, m))
#define UZP1_4S(d, n, m) WORD $(0x4e801800 | RDNM(d, n, m))
#define UZP2_4S(d, n, m) WORD $(0x4e805800 | RDNM(d, n, m))
#define ZIP1_2D(d, n, m) WORD $(0x4ec03800 | RDNM(d, n, m))
#define ZIP2_2D(d, n, m) WORD $(0x4ec07800 | RDNM(d, n, m))

// MUL and MLA Vd.4S, Vn.4S, Vm.S[i]: int32 lanes times lane i of m
// (MLA adds into d).
#define MUL_4S_S(d, n, m, i) WORD $(0x4f808000 | RDNM(d, n, m) | ((i)&1)<<21 | (((i)>>1)&1)<<11)
#define MLA_4S_S(d, n, m, i) WORD $(0x6f800000 | RDNM(d, n, m) | ((i)&1)<<21 | (((i)>>1)&1)<<11)

// UXTL Vd.4S from the low (or, 2, high) four halves of Vn.
#define UXTL_4S(d, n) WORD $(0x2f10a400 | (d) | (n)<<5)
#define UXTL2_4S(d, n) WORD $(0x6f10a400 | (d) | (n)<<5)

// SXTL Vd.4S from the low (or, 2, high) four int16 lanes of Vn.
#define SXTL_4S(d, n) WORD $(0x0f10a400 | (d) | (n)<<5)
#define SXTL2_4S(d, n) WORD $(0x4f10a400 | (d) | (n)<<5)

// MLA Vd.4S, Vn.4S, Vm.4S: d += n·m, int32 lanes.
#define MLA_4S(d, n, m) WORD $(0x4ea09400 | RDNM(d, n, m))

// FSUB Vd.4S, Vn.4S, Vm.4S: d = n - m.
#define FSUB_4S(d, n, m) WORD $(0x4ea0d400 | RDNM(d, n, m))

// FMLA Vd.4S, Vn.4S, Vm.4S: d += n·m, fused.
#define FMLA_4S(d, n, m) WORD $(0x4e20cc00 | RDNM(d, n, m))
