// The RMSNorm factor of a row as the CPU backend computes it (gpu/cpu's
// rmsScale), for the exact mode (swapped in for rms_scale): float32
// squares summed in float64 in four partial sums, s0 taking values 0, 4,
// 8 ... and the values past the last four, then ((s0+s1)+s2)+s3 divided
// by n in float64 and rounded to float32; then 1/sqrt(mean + eps), both
// correctly rounded. float64 is emulated with integers (f64_exact).
//
// The CPU's order is four serial loops of n/4 adds, slow as one thread
// each. But its mean is rounded to float32, and a sum of squares (none
// negative) in any order lies within d·2^-53 of the true sum, d the most
// adds any term passes through. So the NT threads sum in a tree (d small)
// and widen their sum by both orders' bounds; where the whole interval
// divides and rounds to one float32, that is the CPU's mean (division and
// rounding are monotone). Only a mean within about 2^-42 of a float32 tie
// (relative, at n = 2048) is left undecided, about one random row in
// 2^17, and then the four serial loops run as the CPU's. Squares and eps
// added to the mean are f32 operations, correctly rounded in WGSL unless
// a result is subnormal (a row of values under 1e-19, which a driver may
// flush).
//!use exact_math
//!use f64_div
//!use f64_tree
var<workgroup> lanes: array<F64, 4>;
var<workgroup> factor: f32;
var<workgroup> undecided: u32;

// square64 is float64(x*x), the square rounded to float32 first.
fn square64(x: f32) -> F64 { return f64_from(x * x); }

// rms_adds is the most adds a square passes through in both orders
// together: the CPU's n/4 - 1 + 3 (the tail) + 3 (the lanes), the tree's
// ceil(n/NT) - 1 + log2(NT).
fn rms_adds(n: u32) -> u32 { return n / 4u + 5u + (n + NT - 1u) / NT + firstTrailingBit(NT); }

// mean_f32 is float32(s/n), s rounded to float64 as the division is.
fn mean_f32(s: F64, n: u32) -> f32 { return f64_f32(f64_div(s, f64_from_u32(n))); }

// rms_scale is 1/sqrt(mean(In²) + eps) of row (i1, i2, i3) of In (X at
// location 5), with words 0 row length and 3 eps. Call from uniform
// control flow.
fn rms_scale(li: u32, i1: u32, i2: u32, i3: u32) -> f32 {
    let n = pu(0u);
    var s = F64(U64(0u, 0u), 0, false);
    for (var i = li; i < n; i += NT) { s = f64_add(s, square64(X[at(5u, i, i1, i2, i3)])); }
    let total = f64_tree_sum(li, s);
    if (li == 0u) {
        let mean = f64_div(total, f64_from_u32(n));
        // Taken around the quotient rather than the sum (one division, not
        // two): the spread's margin covers both quotients' rounding.
        let spread = f64_spread(mean, rms_adds(n));
        let low = f64_f32(f64_add(mean, F64(spread.m, spread.e, true)));
        let high = f64_f32(f64_add(mean, spread));
        undecided = select(0u, 1u, low != high);
        factor = div_exact(1.0, sqrt_exact(low + pf(3u)));
    }
    if (workgroupUniformLoad(&undecided) != 0u) {
        let whole = n & ~3u;
        if (li < 4u) {
            var s = F64(U64(0u, 0u), 0, false);
            for (var i = li; i < whole; i += 4u) { s = f64_add(s, square64(X[at(5u, i, i1, i2, i3)])); }
            if (li == 0u) {
                for (var i = whole; i < n; i++) { s = f64_add(s, square64(X[at(5u, i, i1, i2, i3)])); }
            }
            lanes[li] = s;
        }
        workgroupBarrier();
        if (li == 0u) {
            let sum = f64_add(f64_add(f64_add(lanes[0], lanes[1]), lanes[2]), lanes[3]);
            factor = div_exact(1.0, sqrt_exact(mean_f32(sum, n) + pf(3u)));
        }
    }
    return workgroupUniformLoad(&factor);
}
