// Q4_K in the exact products, in the CPU backend's three orders: repacked
// gemv (the super-block's integer dot and minimum sum, one fused
// multiply-add each), repacked gemm (the same a pair of sub-blocks at a
// time) and unrepacked (eight lanes, the minimums in four).
//!use exact_act
//!use exact_orders
//!use kscale
fn exact_dot(rb: u32, xo: u32, so: u32, K: u32, order: u32) -> f32 {
    var acc = array<f32, 8>();
    var acc_min = array<f32, 4>();
    var dot = 0.0;
    var dmin_sum = 0.0;
    for (var b = 0u; b < K / 256u; b++) {
        let o = rb + b * 144u;
        let a = act_block(xo, so, 256u, b);
        // Per sub-block: the scaled dot and the minimum times its sum.
        var sub = array<i32, 8>();
        var mins = array<i32, 8>();
        var s = array<i32, 8>();
        for (var j = 0u; j < 8u; j++) {
            let sm = vec2<i32>(kscale(o + 4u, j));
            mins[j] = sm.y * (bsum16(a, 2u * j) + bsum16(a, 2u * j + 1u));
            var d = 0;
            for (var l = 0u; l < 32u; l++) {
                let p = i32((b8(o + 16u + 32u * (j / 2u) + l) >> (4u * (j % 2u))) & 15u) * aq(a, 32u * j + l);
                d += p;
                s[l / 4u] += sm.x * p;
            }
            sub[j] = sm.x * d;
        }
        let d = h16(o) * a.d;
        let dm = h16(o + 2u) * a.d;
        if (order == ORDER_Q4K_GEMV) {
            var isum = 0;
            var msum = 0;
            for (var j = 0u; j < 8u; j++) {
                isum += sub[j];
                msum += mins[j];
            }
            dot = fma_exact(f32(isum), d, dot);
            dmin_sum = fma_exact(f32(msum), dm, dmin_sum);
        } else if (order == ORDER_Q4K_GEMM) {
            for (var j = 0u; j < 8u; j += 2u) {
                dot = fma_exact(f32(sub[j] + sub[j + 1u]), d, dot);
                dmin_sum = fma_exact(f32(mins[j] + mins[j + 1u]), dm, dmin_sum);
            }
        } else {
            let ndm = -a.d * h16(o + 2u);
            for (var k = 0u; k < 4u; k++) { acc_min[k] = fma_exact(ndm, f32(mins[2u * k] + mins[2u * k + 1u]), acc_min[k]); }
            lanes8(&acc, a.d * h16(o), s);
        }
    }
    if (order == ORDER_LANES8) {
        return sum_lanes8(acc) + ((acc_min[0] + acc_min[2]) + (acc_min[1] + acc_min[3]));
    }
    return dot - dmin_sum;
}
