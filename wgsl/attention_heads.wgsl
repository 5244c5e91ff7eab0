// Causal attention as attention.wgsl, for four query heads that share a
// key head, token t, one workgroup per (four heads, t): each key and value
// row is read once for the four, where attention.wgsl reads it once a
// head. A prefill's queries all read the same cache rows, so the reads,
// not the arithmetic, are its time (bench/JOURNAL.md).
// Each head's sums are attention.wgsl's, lane g of a vec4 doing what its
// head's workgroup does, in the same order, so the results are the same
// bits. Words: attentionKernelParams; H / KV heads a multiple of 4.
// Built for head sizes up to MAXD (a multiple of 128 the backend declares,
// decode "TYPE@MAXD"), which sizes the queries' workgroup memory.
//!use common
//!use expf
//!use step
//!decode
const WG = 64u;
const PER = MAXD / WG; // output values per thread
// attend.wgsl's row groups: SCH rows at a time, SLANES threads to a row,
// a lane's pairs KSTEP apart.
const SCH = 16u;
const SLANES = 4u;
const KSTEP = 2u * SLANES;
@group(0) @binding(2) var<storage, read> Q: array<f32>;
@group(0) @binding(3) var<storage, read> K: array<u32>;
@group(0) @binding(4) var<storage, read> V: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

var<workgroup> q4: array<Held4, MAXD>;
var<workgroup> w4: array<vec4<f32>, SCH>;
// The lanes' partial scores of a row group, then its scores and weights.
var<workgroup> red4: array<vec4<f32>, WG>;
var<workgroup> sc4: array<vec4<f32>, SCH>;
// The value sums' rescale for a row group, then 1 / the weights' sum.
var<workgroup> ga: vec4<f32>;

// kpart4 is attend.wgsl's kpart for the four heads: eight pairs loaded,
// then added in order.
fn qk_pair4(s: vec4<f32>, d: u32, k: vec2<f32>) -> vec4<f32> { return s + (held4(q4[d]) * k.x + held4(q4[d + 1u]) * k.y); }
fn kpart4(row: u32, lane: u32) -> vec4<f32> {
    let DK = pu(P_DK);
    var s = vec4<f32>(0.0);
    var d = 2u * lane;
    for (; d + 7u * KSTEP + 1u < DK; d += 8u * KSTEP) {
        let r = row + d;
        let k0 = kload2(r);
        let k1 = kload2(r + KSTEP);
        let k2 = kload2(r + 2u * KSTEP);
        let k3 = kload2(r + 3u * KSTEP);
        let k4 = kload2(r + 4u * KSTEP);
        let k5 = kload2(r + 5u * KSTEP);
        let k6 = kload2(r + 6u * KSTEP);
        let k7 = kload2(r + 7u * KSTEP);
        s = qk_pair4(s, d, k0);
        s = qk_pair4(s, d + KSTEP, k1);
        s = qk_pair4(s, d + 2u * KSTEP, k2);
        s = qk_pair4(s, d + 3u * KSTEP, k3);
        s = qk_pair4(s, d + 4u * KSTEP, k4);
        s = qk_pair4(s, d + 5u * KSTEP, k5);
        s = qk_pair4(s, d + 6u * KSTEP, k6);
        s = qk_pair4(s, d + 7u * KSTEP, k7);
    }
    for (; d + 1u < DK; d += KSTEP) { s = qk_pair4(s, d, kload2(row + d)); }
    if (DK % 2u == 1u && lane == 0u) { s += held4(q4[DK - 1u]) * kload(row + DK - 1u); }
    return s;
}

// group_scores4 is attention.wgsl's group_scores for the four heads, into
// sc4. Call it from uniform control flow.
fn group_scores4(li: u32, j0: u32, n: u32, kbase: u32) {
    let j = j0 + li / SLANES;
    var s = vec4<f32>(0.0);
    if (j < n) { s = kpart4(j * pu(P_KEY_STRIDE) + kbase, li % SLANES); }
    red4[li] = s;
    workgroupBarrier();
    if (li < SCH) {
        var t = vec4<f32>(0.0);
        for (var l = 0u; l < SLANES; l++) { t += red4[li * SLANES + l]; }
        sc4[li] = t * pf(P_SCALE);
    }
    workgroupBarrier();
}

// group_max is m and the group's cn scores' maximum, group_sum the sum of
// its cn weights, each in row order (zero plus the first weight is that
// weight, so a full group's sum starts from it). A full group's sixteen
// values are loaded before they are combined: the loop of one load a
// turn, which the driver keeps rolled, waits out each load in turn.
fn group_max(m: vec4<f32>, cn: u32) -> vec4<f32> {
    if (cn == SCH) {
        let s = full_group(false);
        return max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(m, s[0]), s[1]), s[2]), s[3]), s[4]), s[5]),
            s[6]), s[7]), s[8]), s[9]), s[10]), s[11]), s[12]), s[13]), s[14]), s[15]);
    }
    var gm = m;
    for (var i = 0u; i < cn; i++) { gm = max(gm, sc4[i]); }
    return gm;
}
fn group_sum(cn: u32) -> vec4<f32> {
    if (cn == SCH) {
        let e = full_group(true);
        return ((((((((((((((e[0] + e[1]) + e[2]) + e[3]) + e[4]) + e[5]) + e[6]) + e[7]) + e[8]) + e[9]) + e[10]) + e[11])
            + e[12]) + e[13]) + e[14]) + e[15];
    }
    var gs = vec4<f32>(0.0);
    for (var i = 0u; i < cn; i++) { gs += w4[i]; }
    return gs;
}
// full_group is a full row group's sixteen weights (or scores), each
// read once, indexed by constants only (kept in registers).
fn full_group(weights: bool) -> array<vec4<f32>, SCH> {
    if (weights) {
        return array<vec4<f32>, SCH>(w4[0], w4[1], w4[2], w4[3], w4[4], w4[5], w4[6], w4[7],
            w4[8], w4[9], w4[10], w4[11], w4[12], w4[13], w4[14], w4[15]);
    }
    return array<vec4<f32>, SCH>(sc4[0], sc4[1], sc4[2], sc4[3], sc4[4], sc4[5], sc4[6], sc4[7],
        sc4[8], sc4[9], sc4[10], sc4[11], sc4[12], sc4[13], sc4[14], sc4[15]);
}

fn expf4(x: vec4<f32>) -> vec4<f32> { return vec4<f32>(expf(x.x), expf(x.y), expf(x.z), expf(x.w)); }

// A thread's sums of value pair (d, d+1) for the four heads, weighted by
// exp(score − m); main keeps up to five of them in named variables (PER /
// 2 of them: an array indexed in a loop may be kept in memory by the
// driver). Heads are at most 640 values (checkAttention refuses longer).
const_assert PER <= 10u;
struct VPair { x: vec4<f32>, y: vec4<f32> }
// Rows is the row group being added: its first row, its length, where
// the head's values start, the rows' stride, and the rescale of the sums.
struct Rows { j0: u32, cn: u32, vbase: u32, vs: u32, alpha: vec4<f32> }

// value_rows is p rescaled and the group's weighted value pairs added in
// order, four rows loaded before they are added; p as it is past DV.
fn value_rows(p: VPair, d: u32, g: Rows) -> VPair {
    if (d >= pu(P_DV)) { return p; }
    var sx = p.x * g.alpha;
    var sy = p.y * g.alpha;
    let vs = g.vs;
    var j = 0u;
    for (; j + 3u < g.cn; j += 4u) {
        let o = (g.j0 + j) * vs + g.vbase + d;
        let v0 = vload2(o);
        let v1 = vload2(o + vs);
        let v2 = vload2(o + 2u * vs);
        let v3 = vload2(o + 3u * vs);
        sx += w4[j] * v0.x;
        sy += w4[j] * v0.y;
        sx += w4[j + 1u] * v1.x;
        sy += w4[j + 1u] * v1.y;
        sx += w4[j + 2u] * v2.x;
        sy += w4[j + 2u] * v2.y;
        sx += w4[j + 3u] * v3.x;
        sy += w4[j + 3u] * v3.y;
    }
    for (; j < g.cn; j++) {
        let v = vload2((g.j0 + j) * vs + g.vbase + d);
        sx += w4[j] * v.x;
        sy += w4[j] * v.y;
    }
    return VPair(sx, sy);
}

// store_pair writes value pair (d, d+1) of the four heads h0.. of token
// t, each scaled by its 1 / weights' sum; what lies past DV is dropped.
fn store_pair(p: VPair, d: u32, h0: u32, t: u32, inv: vec4<f32>) {
    let DV = pu(P_DV);
    if (d < DV) {
        let a = p.x * inv;
        O[at(P_OUT, d, h0, t, 0u)] = a.x;
        O[at(P_OUT, d, h0 + 1u, t, 0u)] = a.y;
        O[at(P_OUT, d, h0 + 2u, t, 0u)] = a.z;
        O[at(P_OUT, d, h0 + 3u, t, 0u)] = a.w;
    }
    if (d + 1u < DV) {
        let a = p.y * inv;
        O[at(P_OUT, d + 1u, h0, t, 0u)] = a.x;
        O[at(P_OUT, d + 1u, h0 + 1u, t, 0u)] = a.y;
        O[at(P_OUT, d + 1u, h0 + 2u, t, 0u)] = a.z;
        O[at(P_OUT, d + 1u, h0 + 3u, t, 0u)] = a.w;
    }
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let H = pu(P_H);
    let HG = H / 4u;
    let T = pu(P_T);
    if (g >= HG * T) { return; }
    let h0 = (g % HG) * 4u;
    // The last tokens first, as attention.wgsl takes them.
    let t = T - 1u - g / HG;
    let kvh = h0 / (H / pu(P_HKV));
    let DK = pu(P_DK);
    let DV = pu(P_DV);
    let n = tok_pos(t) + 1u;
    for (var d = li; d < DK; d += WG) {
        var x = vec4<f32>(Q[at(P_Q, d, h0, t, 0u)], Q[at(P_Q, d, h0 + 1u, t, 0u)], Q[at(P_Q, d, h0 + 2u, t, 0u)], Q[at(P_Q, d, h0 + 3u, t, 0u)]);
        if (HALF_CACHE) { x = vec4<f32>(half(x.x), half(x.y), half(x.z), half(x.w)); }
        q4[d] = hold4(x);
    }
    workgroupBarrier();
    let kbase = tok_base(t) * pu(P_KEY_STRIDE) + kvh * DK;
    let vbase = tok_base(t) * pu(P_VALUE_STRIDE) + kvh * pu(P_VALUE_HEAD);
    let vs = pu(P_VALUE_STRIDE);
    var p0 = VPair(vec4<f32>(0.0), vec4<f32>(0.0));
    var p1 = p0;
    var p2 = p0;
    var p3 = p0;
    var p4 = p0;
    var m = vec4<f32>(-3.4e38);
    var l = vec4<f32>(0.0);
    for (var j0 = 0u; j0 < n; j0 += SCH) {
        group_scores4(li, j0, n, kbase);
        let cn = min(SCH, n - j0);
        // The running maximum is the first SCH threads' (each needs it for
        // its weight), the sums' rescale thread 0's for all, and so the
        // weights' sum: done by every thread they cost as much as a value
        // pair's sums (the same values, however many threads compute them).
        // Thread 0 writes ga only once every thread has passed the
        // barriers of the next group's scores, so after all have read it.
        if (li < SCH) {
            let gm = group_max(m, cn);
            if (li == 0u) { ga = expf4(m - gm); }
            m = gm;
            if (li < cn) { w4[li] = expf4(sc4[li] - m); }
        }
        workgroupBarrier();
        let alpha = ga;
        if (li == 0u) { l = l * alpha + group_sum(cn); }
        let rows = Rows(j0, cn, vbase, vs, alpha);
        p0 = value_rows(p0, 2u * li, rows);
        if (PER / 2u > 1u) { p1 = value_rows(p1, 2u * li + 128u, rows); }
        if (PER / 2u > 2u) { p2 = value_rows(p2, 2u * li + 256u, rows); }
        if (PER / 2u > 3u) { p3 = value_rows(p3, 2u * li + 384u, rows); }
        if (PER / 2u > 4u) { p4 = value_rows(p4, 2u * li + 512u, rows); }
    }
    // Every thread has read the last group's ga before thread 0 replaces it.
    workgroupBarrier();
    if (li == 0u) { ga = 1.0 / l; }
    workgroupBarrier();
    let inv = ga;
    store_pair(p0, 2u * li, h0, t, inv);
    if (PER / 2u > 1u) { store_pair(p1, 2u * li + 128u, h0, t, inv); }
    if (PER / 2u > 2u) { store_pair(p2, 2u * li + 256u, h0, t, inv); }
    if (PER / 2u > 3u) { store_pair(p3, 2u * li + 384u, h0, t, inv); }
    if (PER / 2u > 4u) { store_pair(p4, 2u * li + 512u, h0, t, inv); }
}
