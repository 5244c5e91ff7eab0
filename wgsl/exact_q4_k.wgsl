// Q4_K in the exact products, in the CPU backend's three orders: repacked
// gemv (the super-block's integer dot and minimum sum, one fused
// multiply-add each, in x and y), repacked gemm (the same a pair of
// sub-blocks at a time) and unrepacked (eight lanes, the minimums in four,
// aux). Rec: f the weight scale, the weight minimum's, the activation
// scale; s[0..7] the lane sums, s[8..11] the scaled dots of the pairs of
// sub-blocks, s[12..15] their minimum terms (each order adds these in
// pairs or all together, integers, so in any order).
//!use exact_record
//!use kscale
const EXACT_BLOCK = 256u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 144u;
    let a = act_block(xo, so, 256u, b);
    var r: Rec;
    r.f = vec4<f32>(h16(o), h16(o + 2u), a.d, 0.0);
    for (var j = 0u; j < 8u; j++) {
        let sm = vec2<i32>(kscale(o + 4u, j));
        r.s[12u + j / 2u] += sm.y * (bsum16(a, 2u * j) + bsum16(a, 2u * j + 1u));
        var d = 0;
        for (var l = 0u; l < 32u; l += 4u) {
            let p = dot(u4x4(w32(o + 16u + 32u * (j / 2u) + l), 4u * (j % 2u)), aq4(a, 32u * j + l));
            d += p;
            r.s[l / 4u] += sm.x * p;
        }
        r.s[8u + j / 2u] += sm.x * d;
    }
    return r;
}

fn exact_fold(st: ptr<function, ExactState>, r: Rec, b: u32, order: u32) {
    let d = r.f.x * r.f.z;
    let dm = r.f.y * r.f.z;
    if (order == ORDER_Q4K_GEMV) {
        var isum = 0;
        var msum = 0;
        for (var k = 0u; k < 4u; k++) {
            isum += r.s[8u + k];
            msum += r.s[12u + k];
        }
        (*st).x = fma_exact(f32(isum), d, (*st).x);
        (*st).y = fma_exact(f32(msum), dm, (*st).y);
    } else if (order == ORDER_Q4K_GEMM) {
        for (var k = 0u; k < 4u; k++) {
            (*st).x = fma_exact(f32(r.s[8u + k]), d, (*st).x);
            (*st).y = fma_exact(f32(r.s[12u + k]), dm, (*st).y);
        }
    } else {
        let ndm = -r.f.z * r.f.y;
        for (var k = 0u; k < 4u; k++) { (*st).aux[k] = fma_exact(ndm, f32(r.s[12u + k]), (*st).aux[k]); }
        fold_lanes8(st, r.f.z * r.f.x, r.s);
    }
}

// Every order is lanes: gemv and gemm's two chains are lanes 0 (the
// dots, x) and 1 (the minimums, y).
fn exact_lanes(order: u32) -> bool { return true; }

fn exact_fold_lane(l: ptr<function, Lane>, x: LaneIn, b: u32, order: u32, j: u32) {
    // Lane 0's q is s[8..11], lane 1's s[12..15].
    let d = select(x.f.x, x.f.y, j == 1u) * x.f.z;
    if (order == ORDER_Q4K_GEMV) {
        if (j < 2u) { (*l).c = fma_exact(f32(x.q.x + x.q.y + x.q.z + x.q.w), d, (*l).c); }
    } else if (order == ORDER_Q4K_GEMM) {
        if (j < 2u) {
            for (var k = 0u; k < 4u; k++) { (*l).c = fma_exact(f32(x.q[k]), d, (*l).c); }
        }
    } else {
        if (j < 4u) { (*l).m = fma_exact(-x.f.z * x.f.y, f32(x.m), (*l).m); }
        fold_lane8(l, x.f.z * x.f.x, x.s);
    }
}

fn exact_result(st: ExactState, nb: u32, order: u32) -> f32 {
    if (order == ORDER_LANES8) {
        return sum_lanes8(st.acc) + ((st.aux[0] + st.aux[2]) + (st.aux[1] + st.aux[3]));
    }
    return st.x - st.y;
}
