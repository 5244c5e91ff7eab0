// The exact products' view of their rounded activations (X, packed as
// quantize_act writes them): the 8-bit values and the scales the CPU
// stores, recovered from the rounded floats. A rounded value is q·d with
// |q| <= 128, so x / d is within a few ulps of q and rounds back to it.
//!use bytes
//!use fma_exact
//!use exact_aq
struct Act { xo: u32, d: f32, d32: f32, inv: f32 }

// act_block is block blk (of bs values) of the activation row starting
// at element xo, whose scales start at element so.
fn act_block(xo: u32, so: u32, bs: u32, blk: u32) -> Act {
    let d = X[so + 2u * blk];
    var inv = 0.0;
    if (d != 0.0) { inv = 1.0 / d; }
    return Act(xo + blk * bs, d, X[so + 2u * blk + 1u], inv);
}

// x_q is the 8-bit value i of the block, recovered from X.
fn x_q(a: Act, i: u32) -> i32 { return i32(round(X[a.xo + i] * a.inv)); }

// bsum16 is the sum of values 16j .. 16j+15 of a Q8_K block (its bsums).
fn bsum16(a: Act, j: u32) -> i32 {
    let v = aq4(a, 16u * j) + aq4(a, 16u * j + 4u) + aq4(a, 16u * j + 8u) + aq4(a, 16u * j + 12u);
    return v.x + v.y + v.z + v.w;
}

// sum_lanes8 is hsum_float_8 (SumLanes8).
fn sum_lanes8(a: array<f32, 8>) -> f32 {
    let u0 = a[4] + a[0];
    let u1 = a[5] + a[1];
    let u2 = a[6] + a[2];
    let u3 = a[7] + a[3];
    return (u0 + u2) + (u1 + u3);
}
