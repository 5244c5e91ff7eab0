// The scores pass of decode attention (flash-decoding's split): workgroup
// (h, t, g) forms the scaled scores q·k of query head h, token t against
// the cache rows of chunks g, g+Spread, g+2·Spread ... (chunk c: rows
// c·SCH .. c·SCH+SCH-1, those up to pos+t), SLANES threads to a row, and
// writes them to SC, whose rows of S·SCH scores attention_values turns
// into weights. Splitting the rows rather than giving a head one
// workgroup keeps the GPU busy at long contexts; Spread workgroups a row,
// not one a chunk, launch a grid that does not grow with the context the
// cache allows. A batch too large for one scores scratch is dispatched a
// group of tokens at a time (T0, its first). Words: attentionScoresParams.
//!use common
//!use step
//!decode
//!use attend
const WG = 64u;
@group(0) @binding(2) var<storage, read> Q: array<f32>;
@group(0) @binding(3) var<storage, read> K: array<u32>;
@group(0) @binding(4) var<storage, read_write> SC: array<f32>;
// Declared for the cache decoder's value reads; never bound.
@group(0) @binding(5) var<storage, read> V: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let H = pu(P_H);
    let NS = pu(P_CHUNKS);
    let spread = pu(P_SPREAD);
    let c0 = g % spread;
    let ht = g / spread;
    let h = ht % H;
    // The dispatch's tokens are T0 .. T0+T-1; its score rows start at 0.
    let tl = ht / H;
    if (tl >= pu(P_T)) { return; }
    let t = tl + pu(P_T0);
    let n = tok_pos(t) + 1u;
    if (c0 * SCH >= n) { return; }
    let kvh = h / (H / pu(P_HKV));
    let DK = pu(P_DK);
    let kbase = tok_base(t) * pu(P_KEY_STRIDE) + kvh * DK;
    for (var d = li; d < DK; d += WG) {
        var x = Q[at(P_Q, d, h, t, 0u)];
        if (HALF_CACHE) { x = half(x); }
        q[d] = x;
    }
    workgroupBarrier();
    let lane = li % SLANES;
    for (var c = c0; c < NS && c * SCH < n; c += spread) {
        for (var r = li / SLANES; r < SCH; r += WG / SLANES) {
            let j = c * SCH + r;
            var s = 0.0;
            if (j < n) { s = kpart(j * pu(P_KEY_STRIDE) + kbase, lane); }
            part[r * SLANES + lane] = s;
        }
        workgroupBarrier();
        let j = c * SCH + li;
        if (li < SCH && j < n) {
            var s = 0.0;
            for (var l = 0u; l < SLANES; l++) { s += part[li * SLANES + l]; }
            SC[ht * NS * SCH + j] = s * pf(P_SCALE);
        }
        // the next chunk's products overwrite part
        workgroupBarrier();
    }
}
