// One decode token's multi-head latent attention scores (deepseek2's
// absorbed MLA over one latent cache) with the work before them done in
// the same dispatch: each query head rotates its rope part into the
// absorbed query, normalises and rotates the token's new cache row
// [latent, shared rope key], head 0's first workgroup writes that row
// into its cache row, and the scores are attention_scores.wgsl's
// (workgroup (h, g) scores the rows of chunks g, g+Spread, ... into SC;
// attention_values.wgsl does the rest, reading values from the keys). Every workgroup redoes
// the norm and the ropes rather than wait for another's, and takes the
// new row from workgroup memory, never from the cache being written, in
// the order kpart reads a cached row: the results are the separate rope,
// rmsnorm, kv_store and attention_scores kernels' bit for bit. Words:
// mlaStepParams (R, the latent length: the rope part follows it in a
// row).
//!use common
//!use step
//!decode
//!use attend
//!use rope_angle
//!use step_row
const WG = 64u;
@group(0) @binding(2) var<storage, read> Q: array<f32>;
@group(0) @binding(3) var<storage, read_write> K: array<u32>;
@group(0) @binding(4) var<storage, read_write> SC: array<f32>;
@group(0) @binding(5) var<storage, read> QR: array<f32>;
@group(0) @binding(6) var<storage, read> KV: array<f32>;
@group(0) @binding(7) var<storage, read> FF: array<f32>;
@group(0) @binding(8) var<storage, read> NW: array<f32>;
// Declared for the cache decoder's value reads; never bound.
@group(0) @binding(9) var<storage, read> V: array<u32>;

// row_pair is element d of the query (the absorbed part below R, its
// rope part above) and of the new cache row, read at a valid index even
// past DK (put_pair drops those).
fn row_pair(d: u32, h: u32, R: u32, DK: u32) -> vec2<f32> {
    let e = min(d, DK - 1u);
    let a = Q[at(P_Q, min(e, R - 1u), h, 0u, 0u)];
    let b = QR[at(P_QUERY_ROPE, select(0u, e - R, e >= R), h, 0u, 0u)];
    return vec2<f32>(select(a, b, e >= R), KV[at(P_ROW, e, 0u, 0u, 0u)]);
}
fn put_pair(d: u32, v: vec2<f32>, DK: u32) {
    if (d < DK) {
        q[d] = v.x;
        kn[d] = v.y;
    }
}
// norm_at scales latent element d by the norm factor and weight w.
fn norm_at(d: u32, scale: f32, w: f32, R: u32) {
    if (d < R) { kn[d] = kn[d] * scale * w; }
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let spread = pu(P_SPREAD);
    let c0 = g % spread;
    let h = g / spread;
    let pos = tok_pos(0u);
    let base = tok_base(0u);
    if (h >= pu(P_H) || c0 * SCH > pos) { return; }
    let DK = pu(P_DK);
    let R = pu(P_R);
    // Four elements a thread are loaded before any is stored: a loop of one
    // load waits out a memory latency an element (a 576-value row is nine
    // a thread), and a decode step has few workgroups to hide it behind.
    for (var d0 = li; d0 < DK; d0 += 256u) {
        let v0 = row_pair(d0, h, R, DK);
        let v1 = row_pair(d0 + 64u, h, R, DK);
        let v2 = row_pair(d0 + 128u, h, R, DK);
        let v3 = row_pair(d0 + 192u, h, R, DK);
        put_pair(d0, v0, DK);
        put_pair(d0 + 64u, v1, DK);
        put_pair(d0 + 128u, v2, DK);
        put_pair(d0 + 192u, v3, DK);
    }
    workgroupBarrier();
    // the latent's RMSNorm
    let scale = rms_kn(li, R, pf(P_EPS));
    for (var d0 = li; d0 < R; d0 += 256u) {
        let w0 = NW[at(P_NORM, min(d0, R - 1u), 0u, 0u, 0u)];
        let w1 = NW[at(P_NORM, min(d0 + 64u, R - 1u), 0u, 0u, 0u)];
        let w2 = NW[at(P_NORM, min(d0 + 128u, R - 1u), 0u, 0u, 0u)];
        let w3 = NW[at(P_NORM, min(d0 + 192u, R - 1u), 0u, 0u, 0u)];
        norm_at(d0, scale, w0, R);
        norm_at(d0 + 64u, scale, w1, R);
        norm_at(d0 + 128u, scale, w2, R);
        norm_at(d0 + 192u, scale, w3, R);
    }
    rope_step(li, R, pos);
    if (h == 0u && c0 == 0u) {
        let krow = (base + pos) * pu(P_KEY_STRIDE);
        if (HALF_CACHE) {
            for (var d = 2u * li; d < DK; d += 128u) { K[(krow + d) / 2u] = pack_half2(vec2<f32>(kn[d], kn[d + 1u])); }
        } else {
            for (var d = li; d < DK; d += 64u) { K[krow + d] = bitcast<u32>(kn[d]); }
        }
    }
    step_chunks(li, c0, h, base * pu(P_KEY_STRIDE), pos);
}
