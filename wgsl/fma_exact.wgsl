// fma_exact is a·b + c rounded once (to nearest, ties to even), computed
// with integers: WGSL's fma may be a multiply and an add (lavapipe's is),
// and the exact products must round where the CPU's fused multiply-adds
// do. Normal and zero operands; subnormal results go through ldexp.
//
// FMA_FUSED is set true (wgsl.FusedFMA) on a device whose fma() a probe
// found rounded once, as NVIDIA's is: there fma_exact is that instruction,
// tens of integer operations fewer.
const FMA_FUSED = false;
struct U64 { hi: u32, lo: u32 }

fn u64_add(a: U64, b: U64) -> U64 {
    let lo = a.lo + b.lo;
    return U64(a.hi + b.hi + select(0u, 1u, lo < a.lo), lo);
}

fn u64_sub(a: U64, b: U64) -> U64 {
    return U64(a.hi - b.hi - select(0u, 1u, a.lo < b.lo), a.lo - b.lo);
}

fn u64_less(a: U64, b: U64) -> bool { return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo); }

fn u64_shl(a: U64, n: u32) -> U64 {
    if (n == 0u) { return a; }
    if (n >= 32u) { return U64(a.lo << (n - 32u), 0u); }
    return U64((a.hi << n) | (a.lo >> (32u - n)), a.lo << n);
}

// u64_shr shifts right by n, setting bit 0 when a lost bit was set (the
// sticky bit rounding needs).
fn u64_shr(a: U64, n: u32) -> U64 {
    if (n == 0u) { return a; }
    if (n >= 64u) { return U64(0u, select(0u, 1u, a.hi != 0u || a.lo != 0u)); }
    var r: U64;
    var lost: bool;
    if (n >= 32u) {
        let k = n - 32u;
        r = U64(0u, a.hi >> k);
        lost = a.lo != 0u || (k > 0u && (a.hi << (32u - k)) != 0u);
    } else {
        r = U64(a.hi >> n, (a.lo >> n) | (a.hi << (32u - n)));
        lost = (a.lo << (32u - n)) != 0u;
    }
    r.lo |= select(0u, 1u, lost);
    return r;
}

fn u64_clz(a: U64) -> u32 {
    if (a.hi != 0u) { return countLeadingZeros(a.hi); }
    return 32u + countLeadingZeros(a.lo);
}

// f32_parts is x as mantissa · 2^(exponent - 23), sign apart.
struct F32Parts { m: u32, e: i32, neg: bool }

fn f32_parts(x: f32) -> F32Parts {
    let b = bitcast<u32>(x);
    let f = (b >> 23u) & 255u;
    var m = b & 0x7fffffu;
    if (f != 0u) { m |= 0x800000u; }
    return F32Parts(m, i32(max(f, 1u)) - 127, (b >> 31u) != 0u);
}

// u64_bit is bit i of a; u64_below whether a bit below i is set.
fn u64_bit(a: U64, i: u32) -> bool {
    if (i >= 32u) { return ((a.hi >> (i - 32u)) & 1u) != 0u; }
    return ((a.lo >> i) & 1u) != 0u;
}

fn u64_below(a: U64, i: u32) -> bool {
    if (i == 0u) { return false; }
    if (i >= 32u) { return a.lo != 0u || (i > 32u && (a.hi << (64u - i)) != 0u); }
    return (a.lo << (32u - i)) != 0u;
}

fn fma_exact(a: f32, b: f32, c: f32) -> f32 {
    if (FMA_FUSED) { return fma(a, b, c); }
    let pa = f32_parts(a);
    let pb = f32_parts(b);
    let pc = f32_parts(c);
    if (pa.m == 0u || pb.m == 0u) { return c + a * b; }
    if (pc.m == 0u) { return a * b; }
    let inf = vec3<u32>(0x7f800000u);
    if (any((vec3<u32>(bitcast<u32>(a), bitcast<u32>(b), bitcast<u32>(c)) & inf) == inf)) { return a * b + c; }
    // The 48-bit product from 12-bit halves, shifted to end below bit
    // 62: the value is p·2^ep.
    let a1 = pa.m >> 12u;
    let a0 = pa.m & 0xfffu;
    let b1 = pb.m >> 12u;
    let b0 = pb.m & 0xfffu;
    let hi = a1 * b1;
    let mid = a1 * b0 + a0 * b1;
    var p = u64_add(u64_add(U64(hi >> 8u, hi << 24u), U64(mid >> 20u, mid << 12u)), U64(0u, a0 * b0));
    p = u64_shl(p, 14u);
    var ep = pa.e + pb.e - 60;
    // c likewise: q·2^eq.
    var q = U64(pc.m << 6u, 0u);
    let eq = pc.e - 61;
    if (ep >= eq) {
        q = u64_shr(q, u32(min(ep - eq, 64)));
    } else {
        p = u64_shr(p, u32(min(eq - ep, 64)));
        ep = eq;
    }
    let pneg = pa.neg != pb.neg;
    var neg = pneg;
    var m: U64;
    if (pneg == pc.neg) {
        m = u64_add(p, q);
    } else if (u64_less(p, q)) {
        m = u64_sub(q, p);
        neg = pc.neg;
    } else {
        m = u64_sub(p, q);
    }
    if (m.hi == 0u && m.lo == 0u) { return 0.0; }
    // Round m to 24 significant bits, to nearest, ties to even.
    let top = 63 - i32(u64_clz(m));
    var e = ep + top;
    var mant: u32;
    if (top > 23) {
        let sh = u32(top - 23);
        mant = u64_shr_plain(m, sh).lo;
        if (u64_bit(m, sh - 1u) && (u64_below(m, sh - 1u) || (mant & 1u) != 0u)) { mant += 1u; }
        if (mant == 0x1000000u) {
            mant = 0x800000u;
            e += 1;
        }
    } else {
        mant = u64_shl(m, u32(23 - top)).lo;
    }
    let sign = select(0u, 0x80000000u, neg);
    let biased = e + 127;
    if (biased >= 255) { return bitcast<f32>(sign | 0x7f800000u); }
    if (biased <= 0) { return select(1.0, -1.0, neg) * ldexp(f32(mant), e - 23); }
    return bitcast<f32>(sign | (u32(biased) << 23u) | (mant & 0x7fffffu));
}

fn u64_shr_plain(a: U64, n: u32) -> U64 {
    if (n == 0u) { return a; }
    if (n >= 32u) { return U64(0u, a.hi >> (n - 32u)); }
    return U64(a.hi >> n, (a.lo >> n) | (a.hi << (32u - n)));
}
