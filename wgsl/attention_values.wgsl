// The values pass of decode attention: after attention_scores (or
// attention_step) wrote the scores of every cache row, workgroup (h, t,
// slice) takes the softmax of head h, token t's scores and sums 32 value
// dimensions over the rows. The weights are formed as attention.wgsl forms
// them (normalised, then rounded to f16 against an F16 cache), which is
// why the softmax waits for every score rather than merging per-chunk
// partial sums: those would round other weights than llama.cpp does.
// Sixteen threads share each value pair's rows, so long contexts are
// split across threads. Words 0..8 as in attention.wgsl, Out at 14,
// 19 S (chunks per score row).
//!use common
//!use expf
//!use step
//!decode
//!use attend
const WG = 256u;
const COLS = 16u; // threads across a slice, two value dimensions each
const SLICE = 32u;
@group(0) @binding(2) var<storage, read_write> SC: array<f32>;
@group(0) @binding(3) var<storage, read_write> V: array<u32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
// Declared for the cache decoder's key reads; never bound.
@group(0) @binding(5) var<storage, read_write> K: array<u32>;

var<workgroup> vpart: array<vec2<f32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let H = pu(2u);
    let DV = pu(1u);
    let slices = (DV + SLICE - 1u) / SLICE;
    let sl = g % slices;
    let ht = g / slices;
    let h = ht % H;
    let t = ht / H;
    if (t >= pu(3u)) { return; }
    let n = S.pos + t + 1u;
    let row = ht * pu(19u) * SCH;
    var m = -3.4e38;
    for (var j = li; j < n; j += WG) { m = max(m, SC[row + j]); }
    m = reduce_max(li, m);
    var l = 0.0;
    for (var j = li; j < n; j += WG) { l += expf(SC[row + j] - m); }
    let inv = 1.0 / reduce_sum(li, l);
    let vbase = (h / (H / pu(4u))) * pu(8u);
    let col = li % COLS;
    let pl = li / COLS;
    let d = sl * SLICE + 2u * col;
    var a = vec2<f32>(0.0, 0.0);
    for (var c0 = 0u; c0 < n; c0 += CHUNK) {
        let cn = min(CHUNK, n - c0);
        for (var j = li; j < cn; j += WG) {
            var p = expf(SC[row + c0 + j] - m) * inv;
            if (HALF_CACHE) { p = half(p); }
            w[j] = p;
        }
        workgroupBarrier();
        if (d < DV) {
            // d + 1 may be past DV: that sum is dropped.
            for (var j = pl; j < cn; j += WG / COLS) { a += w[j] * vload2((c0 + j) * pu(7u) + vbase + d); }
        }
        workgroupBarrier();
    }
    vpart[li] = a;
    workgroupBarrier();
    if (pl == 0u && d < DV) {
        var s = vec2<f32>(0.0, 0.0);
        for (var p = 0u; p < WG / COLS; p++) { s += vpart[p * COLS + col]; }
        O[at(14u, d, h, t, 0u)] = s.x;
        if (d + 1u < DV) { O[at(14u, d + 1u, h, t, 0u)] = s.y; }
    }
}
