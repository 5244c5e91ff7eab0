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
    // Built whole from vectors, no lane stored through an index in a
    // loop: NVIDIA's compiler kept such a record in local memory.
    var lo = vec4<i32>();
    var hi = vec4<i32>();
    var dots = vec4<i32>();
    var mins = vec4<i32>();
    for (var p = 0u; p < 4u; p++) {
        let e = q4_k_sub(o, a, 2u * p);
        let f = q4_k_sub(o, a, 2u * p + 1u);
        lo += e.lo + f.lo;
        hi += e.hi + f.hi;
        let at = vec4<u32>(0u, 1u, 2u, 3u) == vec4<u32>(p);
        dots += select(vec4<i32>(), vec4<i32>(e.dot + f.dot), at);
        mins += select(vec4<i32>(), vec4<i32>(e.min + f.min), at);
    }
    return Rec(vec4<f32>(h16(o), h16(o + 2u), a.d, 0.0), array<i32, 16>(lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w,
        dots.x, dots.y, dots.z, dots.w, mins.x, mins.y, mins.z, mins.w));
}

// SubK is sub-block j's share of a record: its scaled lane sums (lanes
// 0-3 in lo, 4-7 in hi), scaled dot and minimum term.
struct SubK { lo: vec4<i32>, hi: vec4<i32>, dot: i32, min: i32 }

fn q4_k_sub(o: u32, a: Act, j: u32) -> SubK {
    let sm = vec2<i32>(kscale(o + 4u, j));
    let w = o + 16u + 32u * (j / 2u);
    let x = 32u * j;
    let lo = vec4<i32>(q4_k_dot(w, j, a, x), q4_k_dot(w + 4u, j, a, x + 4u), q4_k_dot(w + 8u, j, a, x + 8u), q4_k_dot(w + 12u, j, a, x + 12u));
    let hi = vec4<i32>(q4_k_dot(w + 16u, j, a, x + 16u), q4_k_dot(w + 20u, j, a, x + 20u), q4_k_dot(w + 24u, j, a, x + 24u), q4_k_dot(w + 28u, j, a, x + 28u));
    let all = lo + hi;
    return SubK(sm.x * lo, sm.x * hi, sm.x * (all.x + all.y + all.z + all.w), sm.y * (bsum16(a, 2u * j) + bsum16(a, 2u * j + 1u)));
}

// q4_k_dot is the four values of sub-block j in the word at byte w (its
// low nibbles for even j, high for odd) times activations x .. x+3.
fn q4_k_dot(w: u32, j: u32, a: Act, x: u32) -> i32 { return dot(u4x4(w32(w), 4u * (j % 2u)), aq4(a, x)); }

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
