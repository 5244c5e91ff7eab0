// Float64 division of non-negative values in f64_exact's F64, for the
// exact RMSNorm's mean (the sum of squares over n, as the CPU's float64
// division rounds it).
//!use f64_exact

fn f64_from_u32(n: u32) -> F64 {
    if (n == 0u) { return F64(U64(0u, 0u), 0, false); }
    let lz = countLeadingZeros(n);
    return F64(u64_shl(U64(0u, n), 21u + lz), 31 - i32(lz), false);
}

// f64_div is a/b rounded as float64 division, b not zero.
fn f64_div(a: F64, b: F64) -> F64 {
    if (u64_zero(a.m)) { return a; }
    // By a power of two (an RMSNorm's n in most models) the quotient is
    // exact: only the exponent moves, where the division is 56 steps.
    if (b.m.hi == 0x100000u && b.m.lo == 0u) { return F64(a.m, a.e - b.e, false); }
    // Long division of the mantissas: 56 quotient bits, a.m/b.m lying in
    // (1/2, 2), then the remainder as the sticky bit.
    var r = a.m;
    var q = U64(0u, 0u);
    for (var i = 0u; i < 56u; i++) {
        q = u64_shl(q, 1u);
        if (!u64_less(r, b.m)) {
            r = u64_sub(r, b.m);
            q.lo |= 1u;
        }
        r = u64_shl(r, 1u);
    }
    q.lo |= select(0u, 1u, !u64_zero(r));
    return f64_round(q, a.e - b.e - 55, false);
}
