// Float64 sums of float32 values, rounded as IEEE's double would round
// them: ggml adds some values in double (the tail of ggml_vec_dot_f16,
// softmax's sum) and WGSL has no f64. Only what those sums need: values
// from float32s, addition, the reciprocal and the conversion back, all
// in the normal double range (sums of float32 values stay in it).
//!use fma_exact

// F64 is (-1)^neg · m · 2^(e-52), m with bit 52 set, or zero (m = 0).
struct F64 { m: U64, e: i32, neg: bool }

fn u64_zero(a: U64) -> bool { return a.hi == 0u && a.lo == 0u; }

fn f64_from(x: f32) -> F64 {
    let p = f32_parts(x);
    if (p.m == 0u) { return F64(U64(0u, 0u), 0, p.neg); }
    // A subnormal's mantissa lacks bit 23: shift it up to there.
    let lz = countLeadingZeros(p.m) - 8u;
    return F64(u64_shl(U64(0u, p.m), 29u + lz), p.e - i32(lz), p.neg);
}

// f64_round rounds m·2^base (m not zero, bit 0 sticky) to 53 bits, to
// nearest, ties to even.
fn f64_round(m: U64, base: i32, neg: bool) -> F64 {
    let top = 63u - u64_clz(m);
    if (top <= 52u) { return F64(u64_shl(m, 52u - top), base + i32(top), neg); }
    let sh = top - 52u;
    var r = u64_shr_plain(m, sh);
    if (u64_bit(m, sh - 1u) && (u64_below(m, sh - 1u) || (r.lo & 1u) != 0u)) { r = u64_add(r, U64(0u, 1u)); }
    var e = base + i32(top);
    if (r.hi == 0x200000u) {
        r = U64(0x100000u, 0u);
        e += 1;
    }
    return F64(r, e, neg);
}

fn f64_add(a: F64, b: F64) -> F64 {
    if (u64_zero(a.m) && u64_zero(b.m)) { return F64(a.m, 0, a.neg && b.neg); }
    if (u64_zero(b.m)) { return a; }
    if (u64_zero(a.m)) { return b; }
    var x = a;
    var y = b;
    if (y.e > x.e || (y.e == x.e && u64_less(x.m, y.m))) {
        x = b;
        y = a;
    }
    // Nine guard bits below the mantissas, the smaller one's lost bits
    // kept as a sticky bit 0; bit 62 takes a carry.
    let mx = u64_shl(x.m, 9u);
    let my = u64_shr(u64_shl(y.m, 9u), u32(min(x.e - y.e, 64)));
    var m: U64;
    if (x.neg == y.neg) { m = u64_add(mx, my); } else { m = u64_sub(mx, my); }
    if (u64_zero(m)) { return F64(m, 0, false); }
    return f64_round(m, x.e - 61, x.neg);
}

// f64_spread bounds how far sums of the same non-negative terms, in two
// orders, can lie from each other: with adds the most additions any term
// passes through in both orders together, each lies within adds·2^-53 of
// the true sum. The spread is s times a power of two at least twice that,
// which also covers the bounds' second-order terms and an ulp or two of
// rounding in what is done with it.
fn f64_spread(s: F64, adds: u32) -> F64 {
    return F64(s.m, s.e - 53 + i32(32u - countLeadingZeros(2u * adds)), false);
}

// f64_f32 is float32(a): the 53-bit mantissa rounded once more, to 24
// bits or fewer where the result is subnormal.
fn f64_f32(a: F64) -> f32 {
    let sign = select(0u, 0x80000000u, a.neg);
    if (u64_zero(a.m)) { return bitcast<f32>(sign); }
    var sh = 29u;
    if (a.e < -126) { sh += u32(min(-126 - a.e, 34)); }
    var r = u64_shr_plain(a.m, sh).lo;
    if (u64_bit(a.m, sh - 1u) && (u64_below(a.m, sh - 1u) || (r & 1u) != 0u)) { r += 1u; }
    if (a.e < -126) { return bitcast<f32>(sign | r); } // a carry into bit 23 is the smallest normal
    var e = a.e;
    if (r == 0x1000000u) {
        r = 0x800000u;
        e += 1;
    }
    if (e > 127) { return bitcast<f32>(sign | 0x7f800000u); }
    return bitcast<f32>(sign | (u32(e + 127) << 23u) | (r & 0x7fffffu));
}

// f64_recip_f32 is float32(1 / a), the double quotient rounded first.
fn f64_recip_f32(a: F64) -> f32 {
    if (u64_zero(a.m)) { return 1.0 / f64_f32(a); }
    // 2^52 / m by long division, 55 bits after the integer one: 1/a is
    // q·2^(-55-e) and a remainder.
    var r = U64(0x100000u, 0u);
    var q = U64(0u, 0u);
    if (!u64_less(r, a.m)) {
        r = u64_sub(r, a.m);
        q = U64(0u, 1u);
    }
    for (var i = 0u; i < 55u; i++) {
        r = u64_shl(r, 1u);
        q = u64_shl(q, 1u);
        if (!u64_less(r, a.m)) {
            r = u64_sub(r, a.m);
            q.lo |= 1u;
        }
    }
    var m = u64_shl(q, 1u);
    m.lo |= select(0u, 1u, !u64_zero(r));
    return f64_f32(f64_round(m, -56 - a.e, a.neg));
}
