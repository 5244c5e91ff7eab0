// Correctly rounded division and square root (to nearest, ties to even)
// from integers, for the exact ops: WGSL lets a / b and sqrt be off by a
// few ulps, and the CPU's are IEEE's. Normal operands; others, and
// results outside the normal range, take the builtin. Where the device's
// fma() rounds once (FMA_FUSED), division corrects the builtin's quotient
// instead (div_fused).
//!use fma_exact

// f32_round builds the float ±mant·2^(e-23) from a mantissa of 26 bits
// (two below the 24 kept) and a sticky flag, rounding once.
fn f32_round(neg: bool, q: u32, sticky: bool, e: i32) -> f32 {
    var mant = q >> 2u;
    var exp = e;
    let half = (q & 2u) != 0u;
    if (half && (sticky || (q & 1u) != 0u || (mant & 1u) != 0u)) { mant += 1u; }
    if (mant == 0x1000000u) {
        mant = 0x800000u;
        exp += 1;
    }
    let sign = select(0u, 0x80000000u, neg);
    if (exp + 127 >= 255) { return bitcast<f32>(sign | 0x7f800000u); }
    if (exp + 127 <= 0) { return select(1.0, -1.0, neg) * ldexp(f32(mant), exp - 23); }
    return bitcast<f32>(sign | (u32(exp + 127) << 23u) | (mant & 0x7fffffu));
}

// is_normal reports whether x is a normal float (not zero, subnormal, inf
// or NaN).
fn is_normal(x: f32) -> bool {
    let f = (bitcast<u32>(x) >> 23u) & 255u;
    return f != 0u && f != 255u;
}

fn div_exact(a: f32, b: f32) -> f32 {
    if (!is_normal(a) || !is_normal(b)) { return a / b; }
    if (FMA_FUSED) {
        let q = div_fused(abs(a), abs(b));
        if (q != 0.0) { return select(q, -q, (a < 0.0) != (b < 0.0)); }
    }
    let pa = f32_parts(a);
    let pb = f32_parts(b);
    // 26 quotient bits by long division: ma/mb lies in (1/2, 2).
    var s = 25u;
    if (pa.m < pb.m) { s = 26u; }
    var q = pa.m / pb.m;
    var r = pa.m % pb.m;
    for (var i = 0u; i < s; i++) {
        r <<= 1u;
        q <<= 1u;
        if (r >= pb.m) {
            r -= pb.m;
            q |= 1u;
        }
    }
    return f32_round(pa.neg != pb.neg, q, r != 0u, pa.e - pb.e - i32(s) + 25);
}

// div_fused is a / b for positive normal a and b, correctly rounded, from
// the device's division (a few ulps off) walked to the two floats around
// the quotient by the signs of their residuals a - q·b (fma_exact), and
// the nearer of those taken. A residual's sign is right even rounded, and
// the residuals of those two are exact (a - q·b is a float when q is
// either neighbour of a / b), so comparing them is. It returns 0 where it
// cannot tell: a quotient past the bounds below, whose residuals could be
// subnormal (which a device may flush to zero), or one not found within
// four steps; the long division takes those. With a fused fma() (the
// device's, FMA_FUSED) this is a few instructions against the long
// division's 26 dependent steps.
fn div_fused(a: f32, b: f32) -> f32 {
    var q = a / b;
    // 2^-76 keeps a's residuals at or above 2^-123, q within 2^±100 keeps
    // q·b from overflowing.
    if (!(a >= 1.3234889800848443e-23 && q >= 7.888609052210118e-31 && q <= 1.2676506002282294e30)) { return 0.0; }
    var r = fma_exact(-q, b, a);
    for (var i = 0u; i < 4u; i++) {
        if (r == 0.0) { return q; }
        // r > 0: a / b lies above q.
        let up = r > 0.0;
        let n = bitcast<f32>(select(bitcast<u32>(q) - 1u, bitcast<u32>(q) + 1u, up));
        let rn = fma_exact(-n, b, a);
        if (rn == 0.0) { return n; }
        if ((rn > 0.0) != up) {
            // q and n lie either side of a / b; a tie (which a quotient
            // of two floats cannot make) would go to the even one.
            if (abs(r) < abs(rn) || (abs(r) == abs(rn) && (bitcast<u32>(q) & 1u) == 0u)) { return q; }
            return n;
        }
        q = n;
        r = rn;
    }
    return 0.0;
}

fn sqrt_exact(x: f32) -> f32 {
    if (!is_normal(x) || x < 0.0) { return sqrt(x); }
    let p = f32_parts(x);
    // x = m·2^(e-23); make the power even, then take the integer square
    // root of m·2^k, k chosen for 26 result bits.
    var m = U64(0u, p.m);
    var e2 = p.e - 23;
    if ((e2 & 1) != 0) {
        m = u64_shl(m, 1u);
        e2 -= 1;
    }
    // m < 2^25; m·2^28 < 2^53, whose root has 26 or 27 bits.
    m = u64_shl(m, 28u);
    e2 -= 28;
    var res = U64(0u, 0u);
    var bit = U64(1u << 20u, 0u); // 2^52
    for (var i = 0u; i < 27u; i++) {
        let t = u64_add(res, bit);
        res = u64_shr_plain(res, 1u);
        if (!u64_less(m, t)) {
            m = u64_sub(m, t);
            res = u64_add(res, bit);
        }
        bit = u64_shr_plain(bit, 2u);
    }
    // res = floor(sqrt(m)), m now the remainder; the root is res·2^(e2/2).
    var q = res.lo;
    var sticky = m.hi != 0u || m.lo != 0u;
    var top = 31 - i32(countLeadingZeros(q));
    // Keep 26 bits.
    if (top > 25) {
        let sh = u32(top - 25);
        sticky = sticky || (q & ((1u << sh) - 1u)) != 0u;
        q >>= sh;
        top = 25 + i32(sh);
    } else {
        top = 25;
    }
    return f32_round(false, q, sticky, e2 / 2 + top);
}

// exp_ggml is llama.cpp's vectorised expf as the CPU backend computes it
// (gpu/cpu's expGGML: a polynomial with fused multiply-adds, scaled by
// 2^n and rounded once), which its softmax and SiLU take.
fn exp_ggml(x: f32) -> f32 {
    let r = 0x1.8p23f;
    let z = fma_exact(x, 0x1.715476p+0f, r);
    let n = z - r;
    let b = fma_exact(-n, 0x1.7f7d1cp-20f, fma_exact(-n, 0x1.62e4p-1f, x));
    if (n > 192.0 || n < -192.0) {
        if (n <= 0.0) { return 0.0; }
        let inf = 0x7f800000u; // a let: Tint rejects an infinite constant
        return bitcast<f32>(inf);
    }
    if (x != x) { return x; }
    let u = b * b;
    let j = fma_exact(fma_exact(fma_exact(0x1.0e4020p-7f, b, 0x1.573e2ep-5f), u,
        fma_exact(0x1.555e66p-3f, b, 0x1.fffdb6p-2f)), u, fma_exact(0x1.ffffecp-1f, b, 1.0));
    return scale2(j, i32(n));
}

// scale2 is x·2^k rounded once, subnormal results included (ldexp may
// flush those).
fn scale2(x: f32, k: i32) -> f32 {
    if (!is_normal(x)) { return ldexp(x, k); }
    let p = f32_parts(x);
    let e = p.e + k;
    if (e >= -126) { return ldexp(x, k); }
    // A subnormal: the mantissa shifted right, rounded to nearest even.
    let sh = u32(min(-126 - e, 25));
    let kept = p.m >> sh;
    let rest = p.m & ((1u << sh) - 1u);
    let halfway = 1u << (sh - 1u);
    var m = kept;
    if (rest > halfway || (rest == halfway && (kept & 1u) != 0u)) { m += 1u; }
    return bitcast<f32>(select(0u, 0x80000000u, p.neg) | m);
}
