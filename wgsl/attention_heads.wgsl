// Causal attention as attention.wgsl, for four query heads that share a
// key head, token t, one workgroup per (four heads, t): each key and value
// row is read once for the four, where attention.wgsl reads it once a
// head. A prefill's queries all read the same cache rows, so the reads,
// not the arithmetic, are its time (bench/JOURNAL.md).
// Each head's sums are attention.wgsl's, lane g of a vec4 doing what its
// head's workgroup does, in the same order, so the results are the same
// bits. Words: attentionKernelParams; H / KV heads a multiple of 4.
//!use common
//!use expf
//!use step
//!decode
const WG = 64u;
const MAXD = 640u;
const PER = 10u; // MAXD / WG output values per thread
// Weights a chunk: the value pass walks them in order across chunks, so
// the chunk's size changes no sum.
const CHUNK4 = 256u;
@group(0) @binding(2) var<storage, read_write> Q: array<f32>;
@group(0) @binding(3) var<storage, read_write> K: array<u32>;
@group(0) @binding(4) var<storage, read_write> V: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

var<workgroup> q4: array<vec4<f32>, MAXD>;
var<workgroup> w4: array<vec4<f32>, CHUNK4>;
var<workgroup> red4: array<vec4<f32>, WG>;

// score4 is the four heads' scores of cache row j (attend.wgsl's score).
fn score4(j: u32, kbase: u32) -> vec4<f32> {
    var s = vec4<f32>(0.0);
    let row = j * pu(P_KEY_STRIDE) + kbase;
    for (var d = 0u; d < pu(P_DK); d++) { s += q4[d] * kload(row + d); }
    return s * pf(P_SCALE);
}

fn expf4(x: vec4<f32>) -> vec4<f32> { return vec4<f32>(expf(x.x), expf(x.y), expf(x.z), expf(x.w)); }

// reduce4 is workgroup_reduce's tree, lane by lane: the maximum where
// take_max, else the sum. Call from uniform control flow.
fn reduce4(li: u32, x: vec4<f32>, take_max: bool) -> vec4<f32> {
    red4[li] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s >>= 1u) {
        if (li < s) {
            if (take_max) { red4[li] = max(red4[li], red4[li + s]); } else { red4[li] += red4[li + s]; }
        }
        workgroupBarrier();
    }
    let r = red4[0];
    workgroupBarrier();
    return r;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let H = pu(P_H);
    let HG = H / 4u;
    let h0 = (g % HG) * 4u;
    let t = g / HG;
    let kvh = h0 / (H / pu(P_HKV));
    let DK = pu(P_DK);
    let DV = pu(P_DV);
    let n = tok_pos(t) + 1u;
    for (var d = li; d < DK; d += WG) {
        var x = vec4<f32>(Q[at(P_Q, d, h0, t, 0u)], Q[at(P_Q, d, h0 + 1u, t, 0u)], Q[at(P_Q, d, h0 + 2u, t, 0u)], Q[at(P_Q, d, h0 + 3u, t, 0u)]);
        if (HALF_CACHE) { x = vec4<f32>(half(x.x), half(x.y), half(x.z), half(x.w)); }
        q4[d] = x;
    }
    workgroupBarrier();
    let kbase = tok_base(t) * pu(P_KEY_STRIDE) + kvh * DK;
    var m = vec4<f32>(-3.4e38);
    for (var j = li; j < n; j += WG) { m = max(m, score4(j, kbase)); }
    m = reduce4(li, m, true);
    var l = vec4<f32>(0.0);
    for (var j = li; j < n; j += WG) { l += expf4(score4(j, kbase) - m); }
    let inv = 1.0 / reduce4(li, l, false);
    var acc: array<vec4<f32>, PER>;
    let vbase = tok_base(t) * pu(P_VALUE_STRIDE) + kvh * pu(P_VALUE_HEAD);
    for (var c0 = 0u; c0 < n; c0 += CHUNK4) {
        let cn = min(CHUNK4, n - c0);
        for (var j = li; j < cn; j += WG) {
            var p = expf4(score4(c0 + j, kbase) - m) * inv;
            if (HALF_CACHE) { p = vec4<f32>(half(p.x), half(p.y), half(p.z), half(p.w)); }
            w4[j] = p;
        }
        workgroupBarrier();
        for (var r = 0u; r < PER; r++) {
            let d = li + WG * r;
            if (d < DV) {
                var s = acc[r];
                for (var j = 0u; j < cn; j++) { s += w4[j] * vload((c0 + j) * pu(P_VALUE_STRIDE) + vbase + d); }
                acc[r] = s;
            }
        }
        workgroupBarrier();
    }
    for (var r = 0u; r < PER; r++) {
        let d = li + WG * r;
        if (d < DV) {
            let a = acc[r];
            O[at(P_OUT, d, h0, t, 0u)] = a.x;
            O[at(P_OUT, d, h0 + 1u, t, 0u)] = a.y;
            O[at(P_OUT, d, h0 + 2u, t, 0u)] = a.z;
            O[at(P_OUT, d, h0 + 3u, t, 0u)] = a.w;
        }
    }
}
