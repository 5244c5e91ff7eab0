// Signed float64 fused multiply-add from integers (fma64: a·b + c rounded
// once, to nearest, ties to even), the one operation exp_libm needs: a
// product is fma64(a, b, 0), and a difference known to be exact
// fma64(-k, 1, z). Normal values and zero.
//!use f64_exact

// D is ±m·2^e, m in [2^52, 2^53) or 0 (zero).
struct D { neg: bool, m: U64, e: i32 }

const D_ZERO = D(false, U64(0u, 0u), 0);
const D_ONE = D(false, U64(0x100000u, 0u), -52);

fn d_zero(a: D) -> bool { return a.m.hi == 0u && a.m.lo == 0u; }

fn d_from_f32(x: f32) -> D {
    let v = f64_from(x);
    return D(v.neg, v.m, v.e - 52);
}

// U128 words, least significant first.
alias U128 = array<u32, 4>;

fn u128_add(a: U128, b: U128) -> U128 {
    var r: U128;
    var carry = 0u;
    for (var i = 0u; i < 4u; i++) {
        let s = a[i] + b[i];
        let t = s + carry;
        carry = select(0u, 1u, s < a[i]) + select(0u, 1u, t < s);
        r[i] = t;
    }
    return r;
}

fn u128_sub(a: U128, b: U128) -> U128 {
    var r: U128;
    var borrow = 0u;
    for (var i = 0u; i < 4u; i++) {
        let d = a[i] - b[i];
        r[i] = d - borrow;
        borrow = select(0u, 1u, a[i] < b[i]) + select(0u, 1u, d < borrow);
    }
    return r;
}

fn u128_less(a: U128, b: U128) -> bool {
    for (var i = 3; i >= 0; i--) {
        if (a[i] != b[i]) { return a[i] < b[i]; }
    }
    return false;
}

fn u128_clz(a: U128) -> u32 {
    for (var i = 3; i >= 0; i--) {
        if (a[i] != 0u) { return u32(3 - i) * 32u + countLeadingZeros(a[i]); }
    }
    return 128u;
}

fn u128_bit(a: U128, i: u32) -> bool { return ((a[i / 32u] >> (i % 32u)) & 1u) != 0u; }

// u128_below reports whether a bit of a below bit i is set.
fn u128_below(a: U128, i: u32) -> bool {
    for (var w = 0u; w < i / 32u; w++) {
        if (a[w] != 0u) { return true; }
    }
    let k = i % 32u;
    return k != 0u && (a[i / 32u] << (32u - k)) != 0u;
}

fn u128_shl(a: U128, n: u32) -> U128 {
    var r: U128;
    let w = n / 32u;
    let k = n % 32u;
    for (var i = 3; i >= 0; i--) {
        let j = i - i32(w);
        if (j < 0) { continue; }
        r[i] = a[j] << k;
        if (k != 0u && j > 0) { r[i] |= a[j - 1] >> (32u - k); }
    }
    return r;
}

// u128_shr shifts right by n, setting bit 0 when a lost bit was set.
fn u128_shr(a: U128, n: u32) -> U128 {
    if (n >= 128u) { return U128(select(0u, 1u, u128_clz(a) < 128u), 0u, 0u, 0u); }
    var r = u128_shr_plain(a, n);
    r[0] |= select(0u, 1u, u128_below(a, n));
    return r;
}

fn u128_shr_plain(a: U128, n: u32) -> U128 {
    var r: U128;
    let w = n / 32u;
    let k = n % 32u;
    for (var i = 0u; i < 4u; i++) {
        let j = i + w;
        if (j > 3u) { break; }
        r[i] = a[j] >> k;
        if (k != 0u && j < 3u) { r[i] |= a[j + 1u] << (32u - k); }
    }
    return r;
}

// u128_mul is the exact product of two 53-bit mantissas, from 16-bit
// pieces: their products' halves summed in 16-bit columns, then carried.
fn u128_mul(a: U64, b: U64) -> U128 {
    let pa = array<u32, 4>(a.lo & 0xffffu, a.lo >> 16u, a.hi & 0xffffu, a.hi >> 16u);
    let pb = array<u32, 4>(b.lo & 0xffffu, b.lo >> 16u, b.hi & 0xffffu, b.hi >> 16u);
    var col = array<u32, 9>(0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    for (var i = 0u; i < 4u; i++) {
        for (var j = 0u; j < 4u; j++) {
            let t = pa[i] * pb[j];
            col[i + j] += t & 0xffffu;
            col[i + j + 1u] += t >> 16u;
        }
    }
    var r = U128(0u, 0u, 0u, 0u);
    var carry = 0u;
    for (var c = 0u; c < 8u; c++) {
        let v = col[c] + carry;
        carry = v >> 16u;
        r[c / 2u] |= (v & 0xffffu) << (16u * (c % 2u));
    }
    return r;
}

// d_round is ±s·2^e rounded to 53 bits.
fn d_round(neg: bool, s: U128, e: i32) -> D {
    let top = 127 - i32(u128_clz(s));
    if (top <= 52) {
        let v = u128_shl(s, u32(52 - top));
        return D(neg, U64(v[1], v[0]), e - (52 - top));
    }
    let sh = u32(top - 52);
    let v = u128_shr_plain(s, sh);
    var m = U64(v[1], v[0]);
    var ex = e + i32(sh);
    if (u128_bit(s, sh - 1u) && (u128_below(s, sh - 1u) || (m.lo & 1u) != 0u)) { m = u64_add(m, U64(0u, 1u)); }
    if (m.hi == 0x200000u) {
        m = U64(0x100000u, 0u);
        ex += 1;
    }
    return D(neg, m, ex);
}

fn fma64(a: D, b: D, c: D) -> D {
    if (d_zero(a) || d_zero(b)) { return c; }
    var p = u128_mul(a.m, b.m);
    var ep = a.e + b.e;
    let pneg = a.neg != b.neg;
    if (d_zero(c)) { return d_round(pneg, p, ep); }
    var q = U128(c.m.lo, c.m.hi, 0u, 0u);
    var eq = c.e;
    // Both with their top bit at 126, then the smaller shifted right
    // (lost bits sticky in bit 0: losing any takes a shift past the
    // product's 21 low zero bits, leaving the rounding bit far above).
    let kp = u128_clz(p) - 1u;
    p = u128_shl(p, kp);
    ep -= i32(kp);
    let kq = u128_clz(q) - 1u;
    q = u128_shl(q, kq);
    eq -= i32(kq);
    if (ep >= eq) {
        q = u128_shr(q, u32(min(ep - eq, 128)));
    } else {
        p = u128_shr(p, u32(min(eq - ep, 128)));
        ep = eq;
    }
    if (pneg == c.neg) { return d_round(pneg, u128_add(p, q), ep); }
    if (u128_less(p, q)) { return d_round(c.neg, u128_sub(q, p), ep); }
    let s = u128_sub(p, q);
    if (u128_clz(s) == 128u) { return D_ZERO; }
    return d_round(pneg, s, ep);
}
