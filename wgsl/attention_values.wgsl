// The values pass of decode attention: after attention_scores (or
// attention_step) wrote the scores of every cache row, workgroup (h, t,
// slice) takes the softmax of head h, token t's scores and sums 32 value
// dimensions over the rows. The weights are formed as attention.wgsl forms
// them (normalised, then rounded to f16 against an F16 cache), which is
// why the softmax waits for every score rather than merging per-chunk
// partial sums: those would round other weights than llama.cpp does.
// Sixteen threads share each value pair's rows, so long contexts are
// split across threads. A slice is one 32-value block of the rounding
// the next product wants, so the workgroup can also write Out rounded as
// quantize_act would (mode 0, Q8_0 blocks; mode 2, f16; mode 4, Q8_0
// packed for the integer matvecs, in rows of ROUND_K) to Y, saving that
// dispatch. Words: attentionValuesParams.
//!use common
//!use expf
//!use step
//!decode
//!use attend
//!use round_q8
const WG = 256u;
const COLS = 16u; // threads across a slice, two value dimensions each
const SLICE = 32u;
const VSTEP = WG / COLS; // rows apart that one thread sums
@group(0) @binding(2) var<storage, read_write> SC: array<f32>;
@group(0) @binding(3) var<storage, read> V: array<u32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
// Declared for the cache decoder's key reads; never bound.
@group(0) @binding(6) var<storage, read> K: array<u32>;
@group(0) @binding(5) var<storage, read_write> Y: array<u32>;

var<workgroup> vpart: array<vec2<f32>, 256>;
var<workgroup> slice_scales: vec3<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let H = pu(P_H);
    let DV = pu(P_DV);
    let slices = (DV + SLICE - 1u) / SLICE;
    let sl = g % slices;
    // The dispatch's tokens are T0 .. T0+T-1 (attention_scores.wgsl); its
    // score rows start at 0.
    let ht = g / slices;
    let h = ht % H;
    let tl = ht / H;
    if (tl >= pu(P_T)) { return; }
    let t = tl + pu(P_T0);
    let n = tok_pos(t) + 1u;
    let row = ht * pu(P_CHUNKS) * SCH;
    var m = -3.4e38;
    for (var j = li; j < n; j += WG) { m = max(m, SC[row + j]); }
    m = reduce_max(li, m);
    var l = 0.0;
    for (var j = li; j < n; j += WG) { l += expf(SC[row + j] - m); }
    let inv = 1.0 / reduce_sum(li, l);
    let vbase = tok_base(t) * pu(P_VALUE_STRIDE) + (h / (H / pu(P_HKV))) * pu(P_VALUE_HEAD);
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
            // Four rows' values loaded before any is added (VSTEP rows
            // apart), so a thread of a long context waits out a load's
            // latency once per four rows; the sums keep their order.
            let vs = pu(P_VALUE_STRIDE);
            var j = pl;
            for (; j + 3u * VSTEP < cn; j += 4u * VSTEP) {
                let r = (c0 + j) * vs + vbase + d;
                let v0 = vload2(r);
                let v1 = vload2(r + VSTEP * vs);
                let v2 = vload2(r + 2u * VSTEP * vs);
                let v3 = vload2(r + 3u * VSTEP * vs);
                a += w[j] * v0;
                a += w[j + VSTEP] * v1;
                a += w[j + 2u * VSTEP] * v2;
                a += w[j + 3u * VSTEP] * v3;
            }
            for (; j < cn; j += VSTEP) { a += w[j] * vload2((c0 + j) * vs + vbase + d); }
        }
        workgroupBarrier();
    }
    vpart[li] = a;
    workgroupBarrier();
    var s = vec2<f32>(0.0, 0.0);
    if (pl == 0u && d < DV) {
        for (var p = 0u; p < WG / COLS; p++) { s += vpart[p * COLS + col]; }
        O[at(P_OUT, d, h, t, 0u)] = s.x;
        if (d + 1u < DV) { O[at(P_OUT, d + 1u, h, t, 0u)] = s.y; }
    }
    let mode = pu(P_ROUND);
    if (mode == 3u) { return; }
    // Rounded: the compiler asks only for whole slices of a packed Out.
    let u = d + DV * (h + H * t);
    if (mode == 2u) {
        if (pl == 0u) { Y[u] = bitcast<u32>(half(s.x)); Y[u + 1u] = bitcast<u32>(half(s.y)); }
        return;
    }
    workgroupBarrier();
    if (pl == 0u) { vpart[col] = s; }
    workgroupBarrier();
    if (li == 0u) {
        var m = 0.0;
        for (var i = 0u; i < COLS; i++) { m = max(m, max(abs(vpart[i].x), abs(vpart[i].y))); }
        slice_scales = q8_scales(m, 0.0, 0u);
    }
    workgroupBarrier();
    if (pl == 0u && mode == 0u) {
        Y[u] = bitcast<u32>(q8_round(s.x, slice_scales, 0u));
        Y[u + 1u] = bitcast<u32>(q8_round(s.y, slice_scales, 0u));
    }
    if (pl != 0u || mode != 4u) { return; }
    // Packed: the slice is one block of the reader's row of RK values;
    // value pairs col and col+1 make a word, col 1 sums the integers and
    // col 3 writes the scale.
    let rk = pu(P_ROUND_K);
    let rrow = u / rk;
    let k = u % rk;
    let head = rrow * rk + rk / 4u + 2u * (k / 32u);
    let ss = slice_scales;
    if (col % 2u == 0u) {
        let n = vpart[col + 1u];
        Y[rrow * rk + k / 4u] = pack_q8(q8_int(s.x, ss), q8_int(s.y, ss), q8_int(n.x, ss), q8_int(n.y, ss));
    } else if (col == 1u) {
        var sum = 0;
        for (var i = 0u; i < COLS; i++) { sum += q8_int(vpart[i].x, ss) + q8_int(vpart[i].y, ss); }
        Y[head + 1u] = bitcast<u32>(f32(sum));
    } else if (col == 3u) {
        Y[head] = bitcast<u32>(ss.x);
    }
}
