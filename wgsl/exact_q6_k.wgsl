// Q6_K in the exact products: eight lanes, lane i taking values 4i..4i+3
// of every 32, the -32 offset taken off lane i as 32·scale·(block sum)
// of sub-blocks 2i and 2i+1. Rec: f.x the activation scale, f.y the
// weight's, s the lane sums.
//!use exact_record
const EXACT_BLOCK = 256u;

fn exact_block(rb: u32, xo: u32, so: u32, b: u32) -> Rec {
    let o = rb + b * 210u;
    let a = act_block(xo, so, 256u, b);
    // Lane by lane, each summed in a scalar: a record stored a lane at a
    // time through an index in a loop stayed in local memory on NVIDIA.
    return Rec(vec4<f32>(a.d, h16(o + 208u), 0.0, 0.0), array<i32, 16>(q6_k_lane(o, a, 0u), q6_k_lane(o, a, 1u), q6_k_lane(o, a, 2u),
        q6_k_lane(o, a, 3u), q6_k_lane(o, a, 4u), q6_k_lane(o, a, 5u), q6_k_lane(o, a, 6u), q6_k_lane(o, a, 7u), 0, 0, 0, 0, 0, 0, 0, 0));
}

// q6_k_lane is lane i of the block at byte o: values 4i .. 4i+3 of every
// 32, four at a time sharing their bytes' words and their scale, less
// the -32 offset as 32·scale·(block sum) of sub-blocks 2i and 2i+1.
fn q6_k_lane(o: u32, a: Act, i: u32) -> i32 {
    let l = 4u * i;
    var s = 0;
    for (var h = 0u; h < 2u; h++) {
        for (var c = 0u; c < 4u; c++) {
            let v = 128u * h + 32u * c + l;
            let lo = (w32(o + 64u * h + 32u * (c % 2u) + l) >> (4u * (c / 2u))) & 0x0f0f0f0fu;
            let hi = (w32(o + 128u + 32u * h + l) >> (2u * c)) & 0x03030303u;
            s += i8(o + 192u + v / 16u) * dot(vec4<i32>((vec4<u32>(lo | (hi << 4u)) >> BYTE_SHIFTS) & vec4<u32>(255u)), aq4(a, v));
        }
    }
    return s - 32 * (i8(o + 192u + 2u * i) * bsum16(a, 2u * i) + i8(o + 193u + 2u * i) * bsum16(a, 2u * i + 1u));
}

fn exact_fold(st: ptr<function, ExactState>, r: Rec, b: u32, order: u32) { fold_lanes8(st, r.f.x * r.f.y, r.s); }

fn exact_lanes(order: u32) -> bool { return true; }

fn exact_fold_lane(l: ptr<function, Lane>, x: LaneIn, b: u32, order: u32, j: u32) { fold_lane8(l, x.f.x * x.f.y, x.s); }

fn exact_result(st: ExactState, nb: u32, order: u32) -> f32 { return sum_lanes8(st.acc); }
