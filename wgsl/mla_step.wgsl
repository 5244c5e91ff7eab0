// One decode token's multi-head latent attention scores (deepseek2's
// absorbed MLA over one latent cache) with the work before them done in
// the same dispatch: each query head rotates its rope part into the
// absorbed query, normalises and rotates the token's new cache row
// [latent, shared rope key], head 0's first chunk writes that row into
// cache row pos, and the scores are attention_scores.wgsl's (workgroup
// (h, c) scores rows c·SCH .. c·SCH+SCH-1 into SC; attention_values.wgsl
// does the rest, reading values from the keys). Every workgroup redoes
// the norm and the ropes rather than wait for another's, and takes the
// new row from workgroup memory, never from the cache being written, in
// the order kpart reads a cached row: the results are the separate rope,
// rmsnorm, kv_store and attention_scores kernels' bit for bit. Words 0..8
// and the absorbed query Q at 9 as in attention.wgsl, 14 S (chunks per
// score row), 15 latent length R (the rope part follows it in a row), 16
// the latent norm's eps, rope constants at 19 (rope_angle), the query's
// rope part at 29, the new row at 34, the latent norm's weight at 39.
//!use common
//!use step
//!decode
//!use attend
//!use rope_angle
const WG = 64u;
@group(0) @binding(2) var<storage, read_write> Q: array<f32>;
@group(0) @binding(3) var<storage, read_write> K: array<u32>;
@group(0) @binding(4) var<storage, read_write> SC: array<f32>;
@group(0) @binding(5) var<storage, read_write> QR: array<f32>;
@group(0) @binding(6) var<storage, read_write> KV: array<f32>;
@group(0) @binding(7) var<storage, read_write> FF: array<f32>;
@group(0) @binding(8) var<storage, read_write> NW: array<f32>;
// Declared for the cache decoder's value reads; never bound.
@group(0) @binding(9) var<storage, read_write> V: array<u32>;

var<workgroup> kn: array<f32, 640>;

// kn_part is kpart with the new row kn as the key.
fn kn_part(lane: u32) -> f32 {
    let DK = pu(0u);
    var s = 0.0;
    for (var d = 2u * lane; d + 1u < DK; d += 2u * SLANES) { s += q[d] * kn[d] + q[d + 1u] * kn[d + 1u]; }
    if (DK % 2u == 1u && lane == 0u) { s += q[DK - 1u] * kn[DK - 1u]; }
    return s;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let NS = pu(14u);
    let c = g % NS;
    let h = g / NS;
    let pos = S.pos;
    if (h >= pu(2u) || c * SCH > pos) { return; }
    let DK = pu(0u);
    let R = pu(15u);
    for (var d = li; d < DK; d += 64u) {
        if (d < R) { q[d] = Q[at(9u, d, h, 0u, 0u)]; } else { q[d] = QR[at(29u, d - R, h, 0u, 0u)]; }
        kn[d] = KV[at(34u, d, 0u, 0u, 0u)];
    }
    workgroupBarrier();
    // the latent's RMSNorm, summed as rmsnorm.wgsl's 64 threads sum it
    var ss = 0.0;
    for (var d = li; d < R; d += 64u) { ss += kn[d] * kn[d]; }
    let scale = 1.0 / sqrt(reduce_sum(li, ss) / f32(R) + pf(16u));
    for (var d = li; d < R; d += 64u) { kn[d] = kn[d] * scale * NW[at(39u, d, 0u, 0u, 0u)]; }
    for (var p = li; p < pu(19u) / 2u; p += 64u) {
        let ab = rope_pair(19u, p) + vec2<u32>(R, R);
        let cs = rope_cs(19u, p, pos);
        let q0 = q[ab.x];
        let q1 = q[ab.y];
        q[ab.x] = q0 * cs.x - q1 * cs.y;
        q[ab.y] = q0 * cs.y + q1 * cs.x;
        let k0 = kn[ab.x];
        let k1 = kn[ab.y];
        kn[ab.x] = k0 * cs.x - k1 * cs.y;
        kn[ab.y] = k0 * cs.y + k1 * cs.x;
    }
    workgroupBarrier();
    for (var d = li; d < DK; d += 64u) {
        q[d] = cached(q[d]);
        kn[d] = cached(kn[d]);
    }
    workgroupBarrier();
    if (h == 0u && c == 0u) {
        let krow = pos * pu(6u);
        if (HALF_CACHE) {
            for (var d = 2u * li; d < DK; d += 128u) { K[(krow + d) / 2u] = pack2x16float(vec2<f32>(kn[d], kn[d + 1u])); }
        } else {
            for (var d = li; d < DK; d += 64u) { K[krow + d] = bitcast<u32>(kn[d]); }
        }
    }
    let lane = li % SLANES;
    for (var r = li / SLANES; r < SCH; r += WG / SLANES) {
        let j = c * SCH + r;
        var s = 0.0;
        if (j < pos) {
            s = kpart(j * pu(6u), lane);
        } else if (j == pos) {
            s = kn_part(lane);
        }
        part[r * SLANES + lane] = s;
    }
    workgroupBarrier();
    let j = c * SCH + li;
    if (li < SCH && j <= pos) {
        var s = 0.0;
        for (var l = 0u; l < SLANES; l++) { s += part[li * SLANES + l]; }
        SC[h * NS * SCH + j] = s * pf(5u);
    }
}
