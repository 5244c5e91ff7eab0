// Exact attention, first pass: score j of a query head and token is the
// query (rounded like an F16 cache) dotted with key row j in the CPU's
// order, times the scale. One thread a score. A batch of tokens takes
// tinyBLAS's 16 lanes where DK is a multiple of 16; otherwise
// ggml_vec_dot_f16's 64 lanes over whole steps and the rest in float64.
//!use attention_exact
//!use f64_exact
//!decode
@group(0) @binding(2) var<storage, read_write> Q: array<f32>;
@group(0) @binding(3) var<storage, read_write> K: array<u32>;
@group(0) @binding(4) var<storage, read_write> SC: array<f32>;
// Declared for the cache decoder's value reads; never bound.
@group(0) @binding(5) var<storage, read_write> V: array<u32>;

fn qv(d: u32, h: u32, t: u32) -> f32 {
    let x = Q[at(9u, d, h, t, 0u)];
    if (HALF_CACHE) { return half(x); }
    return x;
}

fn exact_score(row: u32, h: u32, t: u32) -> f32 {
    let DK = pu(0u);
    if (pu(3u) > 1u && DK % 16u == 0u) {
        var acc = array<f32, 16>();
        for (var k = 0u; k < DK; k += 16u) {
            for (var l = 0u; l < 16u; l++) { acc[l] = fma_exact(kload(row + k + l), qv(k + l, h, t), acc[l]); }
        }
        return sum_lanes16(acc);
    }
    let np = DK & ~63u;
    var acc = array<f32, 64>();
    for (var k = 0u; k < np; k += 64u) {
        for (var l = 0u; l < 64u; l++) { acc[l] = fma_exact(kload(row + k + l), qv(k + l, h, t), acc[l]); }
    }
    var a = array<f32, 16>();
    for (var l = 0u; l < 16u; l++) { a[l] = (acc[l] + acc[32u + l]) + (acc[16u + l] + acc[48u + l]); }
    var sum = f64_from(sum_lanes16(a));
    for (var k = np; k < DK; k++) { sum = f64_add(sum, f64_from(kload(row + k) * qv(k, h, t))); }
    return f64_f32(sum);
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let x = head_token(group_index(wid, nwg) * 64u + li, pu(19u));
    if (!x.ok || x.i >= positions(x.t)) { return; }
    let kvh = x.h / (pu(2u) / pu(4u));
    SC[x.row + x.i] = exact_score(x.i * pu(6u) + kvh * pu(0u), x.h, x.t) * pf(5u);
}
