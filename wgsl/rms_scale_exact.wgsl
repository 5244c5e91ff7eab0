// The RMSNorm factor of a row as the CPU backend computes it (gpu/cpu's
// rmsScale), for the exact mode (swapped in for rms_scale): float32
// squares summed in float64 in four partial sums, s0 taking values 0, 4,
// 8 ... and the values past the last four, then ((s0+s1)+s2)+s3 divided
// by n in float64 and rounded to float32; then 1/sqrt(mean + eps), both
// correctly rounded. float64 is emulated with integers, rounding at every
// add as the CPU does, so each partial sum is a serial loop as there: four
// threads of the workgroup take one each. Squares and eps added to the
// mean are f32 operations, correctly rounded in WGSL unless a result is
// subnormal (a row of values under 1e-19, which a driver may flush).
//!use exact_math
var<workgroup> lanes: array<F64, 4>;
var<workgroup> factor: f32;

// F64 is a non-negative float64, m·2^e with m in [2^52, 2^53) (m = 0:
// zero; e then unused).
struct F64 { m: U64, e: i32 }

fn f64_zero(a: F64) -> bool { return a.m.hi == 0u && a.m.lo == 0u; }

// f64_round is s·2^e (s below 2^64, at least 2^53) rounded to 53 bits,
// to nearest, ties to even.
fn f64_round(s: U64, e: i32) -> F64 {
    let sh = 11u - u64_clz(s);
    var m = u64_shr_plain(s, sh);
    var ex = e + i32(sh);
    if (u64_bit(s, sh - 1u) && (u64_below(s, sh - 1u) || (m.lo & 1u) != 0u)) { m = u64_add(m, U64(0u, 1u)); }
    if (m.hi == 0x200000u) {
        m = U64(0x100000u, 0u);
        ex += 1;
    }
    return F64(m, ex);
}

// f64_add is a + b rounded as float64 addition rounds.
fn f64_add(a: F64, b: F64) -> F64 {
    if (f64_zero(a)) { return b; }
    if (f64_zero(b)) { return a; }
    // Both with their top bit at 62: the larger plus the smaller shifted
    // right (lost bits kept sticky in bit 0, below any rounding bit: the
    // larger's low ten bits are 0) fits 64 bits.
    let ka = u64_clz(a.m) - 1u;
    let kb = u64_clz(b.m) - 1u;
    var x = F64(u64_shl(a.m, ka), a.e - i32(ka));
    var y = F64(u64_shl(b.m, kb), b.e - i32(kb));
    if (x.e < y.e) {
        let t = x;
        x = y;
        y = t;
    }
    let s = u64_add(x.m, u64_shr(y.m, u32(min(x.e - y.e, 64))));
    return f64_round(s, x.e);
}

// f64_square is float64(x*x), the square rounded to float32 first, with
// its top bit at 52 as the other functions expect.
fn f64_square(x: f32) -> F64 {
    let p = f32_parts(x * x);
    if (p.m == 0u) { return F64(U64(0u, 0u), 0); }
    let k = countLeadingZeros(p.m) + 21u;
    return F64(u64_shl(U64(0u, p.m), k), p.e - 23 - i32(k));
}

// f64_div_n is a/n rounded as float64 division, for 0 < n < 2^31.
fn f64_div_n(a: F64, n: u32) -> F64 {
    if (f64_zero(a)) { return a; }
    // Long division of a's 53 bits followed by k zero bits by n: the
    // quotient lies in [2^54, 2^56), the remainder makes the sticky bit.
    let k = 34u - countLeadingZeros(n);
    var q = U64(0u, 0u);
    var r = 0u;
    for (var i = 0u; i < 53u + k; i++) {
        var bit = 0u;
        if (i < 53u) { bit = select(0u, 1u, u64_bit(a.m, 52u - i)); }
        r = (r << 1u) | bit;
        q = u64_shl(q, 1u);
        if (r >= n) {
            r -= n;
            q.lo |= 1u;
        }
    }
    q.lo |= select(0u, 1u, r != 0u);
    return f64_round(q, a.e - i32(k));
}

// f64_to_f32 rounds a to float32 (to nearest, ties to even), subnormal
// results included.
fn f64_to_f32(a: F64) -> f32 {
    if (f64_zero(a)) { return 0.0; }
    // a = m·2^e, m in [2^52, 2^53): its float32 exponent is e + 52.
    let E = a.e + 52;
    if (E > 127) { return bitcast<f32>(0x7f800000u); }
    let sh = u32(29 + max(-126 - E, 0));
    if (sh > 54u) { return 0.0; }
    var m = u64_shr_plain(a.m, sh).lo;
    if (u64_bit(a.m, sh - 1u) && (u64_below(a.m, sh - 1u) || (m & 1u) != 0u)) { m += 1u; }
    if (E < -126) { return bitcast<f32>(m); } // a carry into 2^23 is the smallest normal
    // A carry into 2^24 lands in the exponent field, which is the rounding.
    return bitcast<f32>((u32(E + 127) << 23u) + m - 0x800000u);
}

// rms_scale is 1/sqrt(mean(In²) + eps) of row (i1, i2, i3) of In (X at
// location 5), with words 0 row length and 3 eps. Call from uniform
// control flow.
fn rms_scale(li: u32, i1: u32, i2: u32, i3: u32) -> f32 {
    let n = pu(0u);
    let whole = n & ~3u;
    if (li < 4u) {
        var s = F64(U64(0u, 0u), 0);
        for (var i = li; i < whole; i += 4u) { s = f64_add(s, f64_square(X[at(5u, i, i1, i2, i3)])); }
        if (li == 0u) {
            for (var i = whole; i < n; i++) { s = f64_add(s, f64_square(X[at(5u, i, i1, i2, i3)])); }
        }
        lanes[li] = s;
    }
    workgroupBarrier();
    if (li == 0u) {
        let sum = f64_add(f64_add(f64_add(lanes[0], lanes[1]), lanes[2]), lanes[3]);
        let mean = f64_to_f32(f64_div_n(sum, n));
        factor = div_exact(1.0, sqrt_exact(mean + pf(3u)));
    }
    workgroupBarrier();
    return factor;
}
