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

// sum_lanes16v is _mm512_reduce_add_ps (SumLanes16) of lanes held as
// four vectors (0-3, 4-7, 8-11, 12-15). Lanes live in vectors rather than
// arrays indexed in loops: NVIDIA's compiler kept such arrays in local
// memory.
fn sum_lanes16v(a0: vec4<f32>, a1: vec4<f32>, a2: vec4<f32>, a3: vec4<f32>) -> f32 {
    let t0 = a2 + a0;
    let t1 = a3 + a1;
    let u = t1 + t0;
    return (u.x + u.z) + (u.y + u.w);
}

// fma_exact4 is fma_exact of each component.
fn fma_exact4(a: vec4<f32>, b: vec4<f32>, c: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(fma_exact(a.x, b.x, c.x), fma_exact(a.y, b.y, c.y), fma_exact(a.z, b.z, c.z), fma_exact(a.w, b.w, c.w));
}
