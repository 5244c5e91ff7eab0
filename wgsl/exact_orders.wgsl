// The orders of engine/quant's Order (the same numbers), and the sums
// some of them end with.
//!use fma_exact
//!use nofuse
const ORDER_LANES8 = 0u;
const ORDER_TERMS4 = 1u;
const ORDER_CHAIN = 2u;
const ORDER_Q4K_GEMV = 3u;
const ORDER_Q4K_GEMM = 4u;
const ORDER_FLOAT_VEC = 5u;
const ORDER_FLOAT_GEMM = 6u;


// Terms4 is quant's lanes4: term b goes to lane b % 4 for the blocks of
// the whole groups of four, the lanes are folded (0+1)+(2+3), and the
// remaining terms are added one by one.
struct Terms4 { acc: array<f32, 4>, sum: f32, full: u32 }

fn terms4_add(t: ptr<function, Terms4>, b: u32, x: f32) {
    if (b < (*t).full) {
        (*t).acc[b & 3u] += x;
        return;
    }
    if (b == (*t).full) { (*t).sum = ((*t).acc[0] + (*t).acc[1]) + ((*t).acc[2] + (*t).acc[3]); }
    (*t).sum += x;
}

fn terms4_result(t: Terms4, nb: u32) -> f32 {
    if (nb == t.full) { return (t.acc[0] + t.acc[1]) + (t.acc[2] + t.acc[3]); }
    return t.sum;
}

// sum_lanes16 is _mm512_reduce_add_ps (SumLanes16).
fn sum_lanes16(a: array<f32, 16>) -> f32 {
    var t = array<f32, 8>();
    for (var i = 0u; i < 8u; i++) { t[i] = a[i + 8u] + a[i]; }
    let u0 = t[4] + t[0];
    let u1 = t[5] + t[1];
    let u2 = t[6] + t[2];
    let u3 = t[7] + t[3];
    return (u0 + u2) + (u1 + u3);
}
