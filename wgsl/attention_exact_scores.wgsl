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

// score_lanes is lanes l .. l+3 of the score's accumulators that step by
// step through its first np dimensions, a fused multiply-add a step.
fn score_lanes(row: u32, h: u32, t: u32, l: u32, step: u32, np: u32) -> vec4<f32> {
    var v = vec4<f32>();
    for (var k = l; k < np; k += step) {
        let kv = vec4<f32>(kload(row + k), kload(row + k + 1u), kload(row + k + 2u), kload(row + k + 3u));
        v = fma_exact4(kv, vec4<f32>(qv(k, h, t), qv(k + 1u, h, t), qv(k + 2u, h, t), qv(k + 3u, h, t)), v);
    }
    return v;
}

// score_reduced is lanes l .. l+3 of the four accumulators reduced:
// (acc[l] + acc[32+l]) + (acc[16+l] + acc[48+l]).
fn score_reduced(row: u32, h: u32, t: u32, l: u32, np: u32) -> vec4<f32> {
    return (score_lanes(row, h, t, l, 64u, np) + score_lanes(row, h, t, 32u + l, 64u, np))
        + (score_lanes(row, h, t, 16u + l, 64u, np) + score_lanes(row, h, t, 48u + l, 64u, np));
}

fn exact_score(row: u32, h: u32, t: u32) -> f32 {
    let DK = pu(0u);
    if (pu(3u) > 1u && DK % 16u == 0u) {
        // One 16-lane accumulator (a batch's order).
        return sum_lanes16v(score_lanes(row, h, t, 0u, 16u, DK), score_lanes(row, h, t, 4u, 16u, DK), score_lanes(row, h, t, 8u, 16u, DK),
            score_lanes(row, h, t, 12u, 16u, DK));
    }
    // Four 16-lane accumulators over 64-value steps (score_reduced).
    let np = DK & ~63u;
    let a = sum_lanes16v(score_reduced(row, h, t, 0u, np), score_reduced(row, h, t, 4u, np), score_reduced(row, h, t, 8u, np),
        score_reduced(row, h, t, 12u, np));
    var sum = f64_from(a);
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
