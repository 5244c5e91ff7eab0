// A decode step's attention scores with the work before them done in the
// same dispatch, for a lone token or each token of a decode batch (its
// own sequence at its own place): each query head normalises (Qwen3's
// per-head RMSNorm, when set) and rotates itself and its KV head's new
// key, the first query head of each KV group writes that key and value
// into its cache row, and the scores are those of attention_scores.wgsl
// (workgroup (h, t, g) scores the rows of chunks g, g+Spread, ... into
// SC; attention_values.wgsl does the rest).
// A chunk's workgroup redoes the norms and ropes of its head rather than
// wait for another's: they cost far less than a dispatch. The new row is
// read from workgroup memory, never from the cache another workgroup is
// writing, so results match the separate rmsnorm, rope, kv_store and
// attention kernels. Words: attentionStepParams.
//!use common
//!use expf
//!use step
//!decode
//!use attend
//!use rope_angle
//!use step_row
const WG = 64u;
@group(0) @binding(2) var<storage, read> Q: array<f32>;
@group(0) @binding(3) var<storage, read_write> K: array<u32>;
@group(0) @binding(4) var<storage, read_write> V: array<u32>;
@group(0) @binding(5) var<storage, read_write> SC: array<f32>;
@group(0) @binding(6) var<storage, read> KN: array<f32>;
@group(0) @binding(7) var<storage, read> VN: array<f32>;
@group(0) @binding(8) var<storage, read> FF: array<f32>;
@group(0) @binding(9) var<storage, read> NQ: array<f32>;
@group(0) @binding(10) var<storage, read> NK: array<f32>;

// The RMSNorm factor of the query head.
fn rms_q(li: u32, DK: u32) -> f32 {
    var s = 0.0;
    for (var d = li; d < DK; d += 64u) { s += q[d] * q[d]; }
    return 1.0 / sqrt(reduce_sum(li, s) / f32(DK) + pf(P_EPS_Q));
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let spread = pu(P_SPREAD);
    let c0 = g % spread;
    let ht = g / spread;
    let H = pu(P_H);
    let h = ht % H;
    let t = ht / H;
    if (t >= pu(P_T)) { return; }
    let pos = tok_pos(t);
    let base = tok_base(t);
    if (c0 * SCH > pos) { return; }
    let group = H / pu(P_HKV);
    let kvh = h / group;
    let DK = pu(P_DK);
    let DV = pu(P_DV);
    for (var d = li; d < DK; d += 64u) {
        q[d] = Q[at(P_Q, d, h, t, 0u)];
        kn[d] = KN[at(P_K, d, kvh, t, 0u)];
    }
    workgroupBarrier();
    if (pu(P_NORMS) != 0u) {
        let sq = rms_q(li, DK);
        let sk = rms_kn(li, DK, pf(P_EPS_K));
        for (var d = li; d < DK; d += 64u) {
            q[d] = q[d] * sq * NQ[at(P_NORM_Q, d, 0u, 0u, 0u)];
            kn[d] = kn[d] * sk * NK[at(P_NORM_K, d, 0u, 0u, 0u)];
        }
        workgroupBarrier();
    }
    rope_step(li, 0u, pos);
    let kbase = kvh * DK;
    if (h % group == 0u && c0 == 0u) {
        let krow = (base + pos) * pu(P_KEY_STRIDE) + kbase;
        let vrow = (base + pos) * pu(P_VALUE_STRIDE) + kvh * pu(P_VALUE_HEAD);
        let vn = at(P_V, kvh * DV, t, 0u, 0u);
        if (HALF_CACHE) {
            for (var d = 2u * li; d < DK; d += 128u) { K[(krow + d) / 2u] = pack_half2(vec2<f32>(kn[d], kn[d + 1u])); }
            for (var d = 2u * li; d < DV; d += 128u) {
                V[(vrow + d) / 2u] = pack_half2(vec2<f32>(VN[vn + d * pu(P_V + 1u)], VN[vn + (d + 1u) * pu(P_V + 1u)]));
            }
        } else {
            for (var d = li; d < DK; d += 64u) { K[krow + d] = bitcast<u32>(kn[d]); }
            for (var d = li; d < DV; d += 64u) { V[vrow + d] = bitcast<u32>(VN[vn + d * pu(P_V + 1u)]); }
        }
    }
    step_chunks(li, c0, ht, base * pu(P_KEY_STRIDE) + kbase, pos);
}
