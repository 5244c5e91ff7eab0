// Causal attention of query head h, token t over cache rows 0..pos+t, one
// workgroup per (h, t), in one pass over the rows (online softmax, as
// flash attention): each group of SCH rows is scored, SLANES threads to a
// row (kpart: decode's scores, bit for bit), so a thread waits out a few
// batched loads a row group rather than a load per element of its own
// rows; the group's weights exp(score − m), m the largest score so far,
// are added with their value rows to sums rescaled whenever m grows, and
// the sums divided by the weights' sum at the end. The weights stay f32,
// as in llama.cpp's Vulkan flash attention (its CPU backend, and ember's,
// round the normalised weights to f16 against an F16 cache: the two
// differ by at most 2^-11 of the largest value row; TestOpDivergence).
// Words: attentionKernelParams. The query, rounded like the cache, sits
// in workgroup memory.
//!use common
//!use expf
//!use step
//!decode
//!use attend
const WG = 64u;
@group(0) @binding(2) var<storage, read> Q: array<f32>;
@group(0) @binding(3) var<storage, read> K: array<u32>;
@group(0) @binding(4) var<storage, read> V: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

// The scores of the row group being formed, one per row.
var<workgroup> sc: array<f32, SCH>;

// group_scores puts the scaled scores of rows j0 .. j0+SCH-1 (those below
// n) in sc, summed as decode's step_scores sums them. Call it from
// uniform control flow; sc holds them until the next call.
fn group_scores(li: u32, j0: u32, n: u32, kbase: u32) {
    let j = j0 + li / SLANES;
    var s = 0.0;
    if (j < n) { s = kpart(j * pu(P_KEY_STRIDE) + kbase, li % SLANES); }
    part[li] = s;
    workgroupBarrier();
    if (li < SCH) {
        var t = 0.0;
        for (var l = 0u; l < SLANES; l++) { t += part[li * SLANES + l]; }
        sc[li] = t * pf(P_SCALE);
    }
    workgroupBarrier();
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let H = pu(P_H);
    let T = pu(P_T);
    if (g >= H * T) { return; }
    let h = g % H;
    // The last tokens first: they attend to the most rows, and a grid
    // that starts them last ends on a tail of its longest workgroups.
    let t = T - 1u - g / H;
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
    let vbase = tok_base(t) * pu(P_VALUE_STRIDE) + kvh * pu(P_VALUE_HEAD);
    let vs = pu(P_VALUE_STRIDE);
    // Value pair r of the thread, d = 2·li + 128·r, weighted by
    // exp(score − m) for the largest score m so far, l the weights' sum.
    var acc: array<vec2<f32>, PER / 2u>;
    for (var r = 0u; r < PER / 2u; r++) { acc[r] = vec2<f32>(0.0); }
    var m = -3.4e38;
    var l = 0.0;
    for (var j0 = 0u; j0 < n; j0 += SCH) {
        group_scores(li, j0, n, kbase);
        let cn = min(SCH, n - j0);
        var gm = m;
        for (var i = 0u; i < cn; i++) { gm = max(gm, sc[i]); }
        let alpha = expf(m - gm);
        m = gm;
        if (li < cn) { w[li] = expf(sc[li] - m); }
        workgroupBarrier();
        var gs = 0.0;
        for (var i = 0u; i < cn; i++) { gs += w[i]; }
        l = l * alpha + gs;
        // Thread li sums value pairs over the group's rows in order,
        // loading four rows before it adds them.
        for (var r = 0u; r < PER / 2u; r++) {
            let d = 2u * li + 128u * r;
            if (d < DV) {
                var s = acc[r] * alpha;
                var j = 0u;
                for (; j + 3u < cn; j += 4u) {
                    let o = (j0 + j) * vs + vbase + d;
                    let v0 = vload2(o);
                    let v1 = vload2(o + vs);
                    let v2 = vload2(o + 2u * vs);
                    let v3 = vload2(o + 3u * vs);
                    s += w[j] * v0;
                    s += w[j + 1u] * v1;
                    s += w[j + 2u] * v2;
                    s += w[j + 3u] * v3;
                }
                for (; j < cn; j++) { s += w[j] * vload2((j0 + j) * vs + vbase + d); }
                acc[r] = s;
            }
        }
    }
    let inv = 1.0 / l;
    for (var r = 0u; r < PER / 2u; r++) {
        let d = 2u * li + 128u * r;
        if (d < DV) { O[at(P_OUT, d, h, t, 0u)] = acc[r].x * inv; }
        if (d + 1u < DV) { O[at(P_OUT, d + 1u, h, t, 0u)] = acc[r].y * inv; }
    }
}
