// What the attention kernels share: the query head in workgroup memory,
// scores against cached keys, a chunk of weights, and max and sum over
// the WG threads of the kernel's workgroup (workgroup_reduce).
//!use workgroup_reduce
const MAXD = 640u;
const CHUNK = 1024u;
const PER = 10u; // MAXD / 64 output values per thread
// The score pass (attention_scores, attention_step) splits the cache into
// SCH rows per workgroup, so long contexts spread over many workgroups;
// SLANES threads share a row's dot product, neighbours reading
// neighbouring words of the key. A thread waits out about SCH·DK/(2·WG)
// loads one after another, the latency of the whole pass: few rows a
// workgroup keep it short.
const SCH = 16u;
const SLANES = 4u;
var<workgroup> q: array<f32, 640>;
var<workgroup> w: array<f32, 1024>;
var<workgroup> part: array<f32, 64>; // SCH * SLANES

fn score(j: u32, kbase: u32) -> f32 {
    var s = 0.0;
    let row = j * pu(P_KEY_STRIDE) + kbase;
    for (var d = 0u; d < pu(P_DK); d++) { s += q[d] * kload(row + d); }
    return s * pf(P_SCALE);
}

// kpart is lane's share of q · (the key starting at cache element row).
fn kpart(row: u32, lane: u32) -> f32 {
    let DK = pu(P_DK);
    var s = 0.0;
    for (var d = 2u * lane; d + 1u < DK; d += 2u * SLANES) {
        let k = kload2(row + d);
        s += q[d] * k.x + q[d + 1u] * k.y;
    }
    if (DK % 2u == 1u && lane == 0u) { s += q[DK - 1u] * kload(row + DK - 1u); }
    return s;
}

// The stored form of a value: rounded like the cache.
fn cached(x: f32) -> f32 {
    if (HALF_CACHE) { return half(x); }
    return x;
}

