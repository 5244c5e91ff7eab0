// What the attention kernels share: the query head in workgroup memory,
// scores against cached keys, a chunk of weights, and max and sum over
// the WG threads of the kernel's workgroup (workgroup_reduce).
//!use workgroup_reduce
const MAXD = 640u;
const CHUNK = 1024u;
const PER = 10u; // MAXD / 64 output values per thread
// The score pass (attention_scores, attention_step) splits the cache into
// SCH rows per workgroup, so long contexts spread over many workgroups,
// and the prefill kernels (attention, attention_heads) score SCH rows at a
// time; SLANES threads share a row's dot product, neighbours reading
// neighbouring words of the key. A thread waits out about SCH·DK/(16·WG)
// batches of loads one after another (kpart loads eight pairs at once),
// the latency of the whole pass: few rows a workgroup keep it short.
const SCH = 16u;
const SLANES = 4u;
var<workgroup> q: array<f32, 640>;
var<workgroup> w: array<f32, 1024>;
var<workgroup> part: array<f32, 64>; // SCH * SLANES

// A lane reads pairs KSTEP apart. A loop of one load and one add waits
// out a whole memory latency per pair, and a decode's score pass has few
// workgroups to hide it behind (a 576-value MLA key is 72 pairs a lane):
// kpart loads eight pairs before it adds any. Pairs8 holds them, pair i
// of the eight in component pair i of a, b, c, d.
const KSTEP = 2u * SLANES;
struct Pairs8 { a: vec4<f32>, b: vec4<f32>, c: vec4<f32>, d: vec4<f32> }

// qk_pair adds q[d]·k.x + q[d+1]·k.y to s; qk_pairs8 adds eight pairs
// KSTEP apart from d, in order: the same sums as one pair at a time.
fn qk_pair(s: f32, d: u32, k: vec2<f32>) -> f32 { return s + (q[d] * k.x + q[d + 1u] * k.y); }
fn qk_pairs8(s0: f32, d: u32, k: Pairs8) -> f32 {
    var s = qk_pair(s0, d, k.a.xy);
    s = qk_pair(s, d + KSTEP, k.a.zw);
    s = qk_pair(s, d + 2u * KSTEP, k.b.xy);
    s = qk_pair(s, d + 3u * KSTEP, k.b.zw);
    s = qk_pair(s, d + 4u * KSTEP, k.c.xy);
    s = qk_pair(s, d + 5u * KSTEP, k.c.zw);
    s = qk_pair(s, d + 6u * KSTEP, k.d.xy);
    return qk_pair(s, d + 7u * KSTEP, k.d.zw);
}

// kpart is lane's share of q · (the key starting at cache element row).
fn kpart(row: u32, lane: u32) -> f32 {
    let DK = pu(P_DK);
    var s = 0.0;
    var d = 2u * lane;
    for (; d + 7u * KSTEP + 1u < DK; d += 8u * KSTEP) {
        let r = row + d;
        let k = Pairs8(vec4<f32>(kload2(r), kload2(r + KSTEP)), vec4<f32>(kload2(r + 2u * KSTEP), kload2(r + 3u * KSTEP)),
            vec4<f32>(kload2(r + 4u * KSTEP), kload2(r + 5u * KSTEP)), vec4<f32>(kload2(r + 6u * KSTEP), kload2(r + 7u * KSTEP)));
        s = qk_pairs8(s, d, k);
    }
    for (; d + 1u < DK; d += KSTEP) { s = qk_pair(s, d, kload2(row + d)); }
    if (DK % 2u == 1u && lane == 0u) { s += q[DK - 1u] * kload(row + DK - 1u); }
    return s;
}

// The stored form of a value: rounded like the cache.
fn cached(x: f32) -> f32 {
    if (HALF_CACHE) { return half(x); }
    return x;
}

