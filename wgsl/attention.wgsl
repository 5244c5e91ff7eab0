// Causal attention of query head h, token t over cache rows 0..pos+t, one
// workgroup per (h, t): a pass for the largest score, one for the softmax
// sum, and one that forms the normalised weights (rounded to f16 against an
// F16 cache, as llama.cpp does) a chunk at a time in workgroup memory and
// accumulates the values. Words: attentionKernelParams. The query,
// rounded like the cache, sits in workgroup memory.
//!use common
//!use expf
//!use step
//!decode
//!use attend
const WG = 64u;
@group(0) @binding(2) var<storage, read_write> Q: array<f32>;
@group(0) @binding(3) var<storage, read_write> K: array<u32>;
@group(0) @binding(4) var<storage, read_write> V: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let H = pu(P_H);
    let h = g % H;
    let t = g / H;
    let kvh = h / (H / pu(P_HKV));
    let DK = pu(P_DK);
    let DV = pu(P_DV);
    let n = tok_pos(t) + 1u;
    for (var d = li; d < DK; d += 64u) {
        var x = Q[at(P_Q, d, h, t, 0u)];
        if (HALF_CACHE) { x = half(x); }
        q[d] = x;
    }
    workgroupBarrier();
    let kbase = tok_base(t) * pu(P_KEY_STRIDE) + kvh * DK;
    var m = -3.4e38;
    for (var j = li; j < n; j += 64u) { m = max(m, score(j, kbase)); }
    m = reduce_max(li, m);
    var l = 0.0;
    for (var j = li; j < n; j += 64u) { l += expf(score(j, kbase) - m); }
    let inv = 1.0 / reduce_sum(li, l);
    var acc: array<f32, 10>;
    for (var r = 0u; r < PER; r++) { acc[r] = 0.0; }
    let vbase = tok_base(t) * pu(P_VALUE_STRIDE) + kvh * pu(P_VALUE_HEAD);
    for (var c0 = 0u; c0 < n; c0 += CHUNK) {
        let cn = min(CHUNK, n - c0);
        for (var j = li; j < cn; j += 64u) {
            var p = expf(score(c0 + j, kbase) - m) * inv;
            if (HALF_CACHE) { p = half(p); }
            w[j] = p;
        }
        workgroupBarrier();
        for (var r = 0u; r < PER; r++) {
            let d = li + 64u * r;
            if (d < DV) {
                var s = acc[r];
                for (var j = 0u; j < cn; j++) { s += w[j] * vload((c0 + j) * pu(P_VALUE_STRIDE) + vbase + d); }
                acc[r] = s;
            }
        }
        workgroupBarrier();
    }
    for (var r = 0u; r < PER; r++) {
        let d = li + 64u * r;
        if (d < DV) { O[at(P_OUT, d, h, t, 0u)] = acc[r]; }
    }
}
