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
//!use f64_div
var<workgroup> lanes: array<F64, 4>;
var<workgroup> factor: f32;

// square64 is float64(x*x), the square rounded to float32 first.
fn square64(x: f32) -> F64 { return f64_from(x * x); }

// rms_scale is 1/sqrt(mean(In²) + eps) of row (i1, i2, i3) of In (X at
// location 5), with words 0 row length and 3 eps. Call from uniform
// control flow.
fn rms_scale(li: u32, i1: u32, i2: u32, i3: u32) -> f32 {
    let n = pu(0u);
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
        let mean = f64_f32(f64_div(sum, f64_from_u32(n)));
        factor = div_exact(1.0, sqrt_exact(mean + pf(3u)));
    }
    workgroupBarrier();
    return factor;
}
