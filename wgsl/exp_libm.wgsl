// exp_libm is glibc's expf as the CPU backend ports it (gpu/cpu's
// expLibm), which llama.cpp's scalar code calls (the sigmoid op, softmax
// past its last 16-value chunk): x·32/ln2 split into an integer k and a
// remainder r, 2^(k/32) from a table, a cubic in r, all in float64
// (fma64), rounded once to float32. It is not correctly rounded, so only
// the same float64 steps give the same results.
//!use fma64_exact

// The float64 constants: 32/ln2 and the cubic's coefficients.
const EXP_INV = D(false, U64(0x171547u, 0x652b82feu), -47);
const EXP_C0 = D(false, U64(0x1c6af8u, 0x4b912394u), -72);
const EXP_C1 = D(false, U64(0x1ebfceu, 0x50fac4f3u), -65);
const EXP_C2 = D(false, U64(0x162e42u, 0xff0c52d6u), -58);

// The mantissas of glibc's 2^(i/32) (__exp2f_data.tab), all in [1, 2).
const EXP_TAB = array<U64, 32>(
    U64(0x100000u, 0x0u), U64(0x1059b0u, 0xd3158574u), U64(0x10b558u, 0x6cf9890fu), U64(0x111301u, 0xd0125b51u),
    U64(0x1172b8u, 0x3c7d517bu), U64(0x11d487u, 0x3168b9aau), U64(0x12387au, 0x6e756238u), U64(0x129e9du, 0xf51fdee1u),
    U64(0x1306feu, 0xa31b715u), U64(0x1371a7u, 0x373aa9cbu), U64(0x13dea6u, 0x4c123422u), U64(0x144e08u, 0x6061892du),
    U64(0x14bfdau, 0xd5362a27u), U64(0x15342bu, 0x569d4f82u), U64(0x15ab07u, 0xdd485429u), U64(0x16247eu, 0xb03a5585u),
    U64(0x16a09eu, 0x667f3bcdu), U64(0x171f75u, 0xe8ec5f74u), U64(0x17a114u, 0x73eb0187u), U64(0x182589u, 0x994cce13u),
    U64(0x18ace5u, 0x422aa0dbu), U64(0x193737u, 0xb0cdc5e5u), U64(0x19c491u, 0x82a3f090u), U64(0x1a5503u, 0xb23e255du),
    U64(0x1ae89fu, 0x995ad3adu), U64(0x1b7f76u, 0xf2fb5e47u), U64(0x1c199bu, 0xdd85529cu), U64(0x1cb720u, 0xdcef9069u),
    U64(0x1d5818u, 0xdcfba487u), U64(0x1dfc97u, 0x337b9b5fu), U64(0x1ea4afu, 0xa2a490dau), U64(0x1f5076u, 0x5b6e4540u),
);

// d_round_int is z rounded to an integer, ties to even, as glibc's
// z + 0x1.8p52 does; |z| is below 2^13 here.
fn d_round_int(z: D) -> i32 {
    if (d_zero(z) || z.e <= -64) { return 0; }
    let sh = u32(-z.e);
    var k = u64_shr_plain(z.m, sh).lo;
    if (u64_bit(z.m, sh - 1u) && (u64_below(z.m, sh - 1u) || (k & 1u) != 0u)) { k += 1u; }
    return select(i32(k), -i32(k), z.neg);
}

fn exp_libm(x: f32) -> f32 {
    if (x != x) { return x; }
    let inf = 0x7f800000u; // a let: Tint rejects an infinite constant
    if (x > 0x1.62e42ep6f) { return bitcast<f32>(inf); }
    if (x < -0x1.9fe368p6f) { return 0.0; }
    // The steps, as one fma64 in a loop (inlined eight times, it takes
    // lavapipe's compiler minutes): z = x·32/ln2; k = z rounded; r = z -
    // k (exact); p = c0·r + c1; y = c2·r + 1; r²; y = p·r² + y; y·2^(k/32).
    var a = EXP_INV;
    var b = d_from_f32(x);
    var c = D_ZERO;
    var k = 0;
    var r = D_ZERO;
    var p = D_ZERO;
    var y = D_ZERO;
    for (var s = 0u; s < 7u; s++) {
        let v = fma64(a, b, c);
        switch s {
            case 0u: { k = d_round_int(v); a = d_from_f32(f32(-k)); b = D_ONE; c = v; }
            case 1u: { r = v; a = EXP_C0; b = r; c = EXP_C1; }
            case 2u: { p = v; a = EXP_C2; b = r; c = D_ONE; }
            case 3u: { y = v; a = r; b = r; c = D_ZERO; }
            case 4u: { a = p; b = v; c = y; }
            case 5u: { a = v; b = D(false, EXP_TAB[k & 31], -52); c = D_ZERO; }
            default: { y = v; }
        }
    }
    return f64_f32(F64(y.m, y.e + 52 + (k >> 5u), false));
}
