// Q4_0 in the exact products, in the three orders the CPU backend sums it
// in: interleaved (one fused multiply-add a block, in x), repacked without
// interleaving (rounded block terms in four lanes, t4) and unrepacked
// (eight lanes). Rec: f.x the weight scale, f.y the activation's,
// s[0..7] the lane sums, s[8] their total.
//!use exact_record
const EXACT_BLOCK = 32u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 18u;
    let a = act_block(xo, so, 32u, b);
    // The sums built whole rather than stored a lane at a time in a loop:
    // NVIDIA's compiler kept the loop's record in local memory.
    let p0 = q4_0_lanes(o, a, 0u);
    let p1 = q4_0_lanes(o, a, 1u);
    let p2 = q4_0_lanes(o, a, 2u);
    let p3 = q4_0_lanes(o, a, 3u);
    // s[8], the lanes' total, is all the one-chain orders fold: the
    // folding thread reads it rather than the eight lanes.
    let t = p0 + p1 + p2 + p3;
    return Rec(vec4<f32>(h16(o), a.d, 0.0, 0.0), array<i32, 16>(p0.x, p1.x, p2.x, p3.x, p0.y, p1.y, p2.y, p3.y, t.x + t.y, 0, 0, 0, 0, 0, 0, 0));
}

// q4_0_lanes is lanes m and 4+m of the block at byte o: word m holds
// values 4m .. 4m+3 in its low nibbles and 16+4m .. in its high ones.
fn q4_0_lanes(o: u32, a: Act, m: u32) -> vec2<i32> {
    let q = w32(o + 2u + 4u * m);
    return vec2<i32>(dot(u4x4(q, 0u) - 8, aq4(a, 4u * m)), dot(u4x4(q, 4u) - 8, aq4(a, 16u + 4u * m)));
}

fn exact_fold(st: ptr<function, ExactState>, r: Rec, b: u32, order: u32) {
    if (order == ORDER_LANES8) {
        fold_lanes8(st, r.f.x * r.f.y, r.s);
        return;
    }
    let total = r.s[8];
    if (order == ORDER_CHAIN) {
        (*st).x = fma_exact(f32(total), r.f.x * r.f.y, (*st).x);
        return;
    }
    var t4 = (*st).t4;
    terms4_add(&t4, b, nofuse((f32(total) * r.f.x) * r.f.y));
    (*st).t4 = t4;
}

// Only the unrepacked order is lanes: the others are one chain.
fn exact_lanes(order: u32) -> bool { return order == ORDER_LANES8; }

fn exact_fold_lane(l: ptr<function, Lane>, x: LaneIn, b: u32, order: u32, j: u32) { fold_lane8(l, x.f.x * x.f.y, x.s); }

fn exact_result(st: ExactState, nb: u32, order: u32) -> f32 {
    if (order == ORDER_LANES8) { return sum_lanes8(st.acc); }
    if (order == ORDER_CHAIN) { return st.x; }
    return terms4_result(st.t4, nb);
}
