// One decode token's attention with the work before it done in the same
// dispatch: each query head normalises (Qwen3's per-head RMSNorm, when
// set) and rotates itself and its KV head's new key, and the first query
// head of each KV group writes that key and value into cache row pos. The
// new row is read from workgroup memory, never from the cache another
// workgroup is writing; cached rows and the arithmetic are those of
// attention.wgsl, so results match the separate rmsnorm, rope, kv_store
// and attention kernels. One workgroup per query head. Words 0..18 as in
// attention.wgsl (T = 1), rope constants at 19 (rope_angle), 28 has norms,
// 29 and 30 eps of q and k, new K at 31, new V at 36, q norm at 41, k norm
// at 46.
//!use common
//!use expf
//!use step
//!decode
//!use attend
//!use rope_angle
@group(0) @binding(2) var<storage, read_write> Q: array<f32>;
@group(0) @binding(3) var<storage, read_write> K: array<u32>;
@group(0) @binding(4) var<storage, read_write> V: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;
@group(0) @binding(6) var<storage, read_write> KN: array<f32>;
@group(0) @binding(7) var<storage, read_write> VN: array<f32>;
@group(0) @binding(8) var<storage, read_write> FF: array<f32>;
@group(0) @binding(9) var<storage, read_write> NQ: array<f32>;
@group(0) @binding(10) var<storage, read_write> NK: array<f32>;

var<workgroup> kn: array<f32, 640>;
var<workgroup> vn: array<f32, 640>;

// The RMSNorm factors of the query head and the new key head.
fn rms_q(li: u32, DK: u32) -> f32 {
    var s = 0.0;
    for (var d = li; d < DK; d += 64u) { s += q[d] * q[d]; }
    return 1.0 / sqrt(reduce_sum(li, s) / f32(DK) + pf(29u));
}
fn rms_k(li: u32, DK: u32) -> f32 {
    var s = 0.0;
    for (var d = li; d < DK; d += 64u) { s += kn[d] * kn[d]; }
    return 1.0 / sqrt(reduce_sum(li, s) / f32(DK) + pf(30u));
}

// The stored form of a value: rounded like the cache.
fn cached(x: f32) -> f32 {
    if (HALF_CACHE) { return half(x); }
    return x;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let h = group_index(wid, nwg);
    let H = pu(2u);
    let group = H / pu(4u);
    let kvh = h / group;
    let DK = pu(0u);
    let DV = pu(1u);
    let pos = S.pos;
    for (var d = li; d < DK; d += 64u) {
        q[d] = Q[at(9u, d, h, 0u, 0u)];
        kn[d] = KN[at(31u, d, kvh, 0u, 0u)];
    }
    for (var d = li; d < DV; d += 64u) { vn[d] = cached(VN[at(36u, kvh * DV + d, 0u, 0u, 0u)]); }
    workgroupBarrier();
    if (pu(28u) != 0u) {
        let sq = rms_q(li, DK);
        let sk = rms_k(li, DK);
        for (var d = li; d < DK; d += 64u) {
            q[d] = q[d] * sq * NQ[at(41u, d, 0u, 0u, 0u)];
            kn[d] = kn[d] * sk * NK[at(46u, d, 0u, 0u, 0u)];
        }
        workgroupBarrier();
    }
    for (var p = li; p < pu(19u) / 2u; p += 64u) {
        let ab = rope_pair(19u, p);
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
    let kbase = kvh * DK;
    let vbase = kvh * pu(8u);
    if (h % group == 0u) {
        let krow = pos * pu(6u) + kbase;
        let vrow = pos * pu(7u) + vbase;
        if (HALF_CACHE) {
            for (var d = 2u * li; d < DK; d += 128u) { K[(krow + d) / 2u] = pack2x16float(vec2<f32>(kn[d], kn[d + 1u])); }
            for (var d = 2u * li; d < DV; d += 128u) { V[(vrow + d) / 2u] = pack2x16float(vec2<f32>(vn[d], vn[d + 1u])); }
        } else {
            for (var d = li; d < DK; d += 64u) { K[krow + d] = bitcast<u32>(kn[d]); }
            for (var d = li; d < DV; d += 64u) { V[vrow + d] = bitcast<u32>(vn[d]); }
        }
    }
    // The new row is j = pos, thread pos % 64's in attention.wgsl's loops.
    var snew = 0.0;
    for (var d = 0u; d < DK; d++) { snew += q[d] * kn[d]; }
    snew *= pf(5u);
    let mine = li == pos % 64u;
    var m = -3.4e38;
    for (var j = li; j < pos; j += 64u) { m = max(m, score(j, kbase)); }
    if (mine) { m = max(m, snew); }
    m = reduce_max(li, m);
    var l = 0.0;
    for (var j = li; j < pos; j += 64u) { l += expf(score(j, kbase) - m); }
    if (mine) { l += expf(snew - m); }
    let inv = 1.0 / reduce_sum(li, l);
    var acc: array<f32, 10>;
    for (var r = 0u; r < PER; r++) { acc[r] = 0.0; }
    let n = pos + 1u;
    for (var c0 = 0u; c0 < n; c0 += CHUNK) {
        let cn = min(CHUNK, n - c0);
        for (var j = li; j < cn; j += 64u) {
            var s = snew;
            if (c0 + j != pos) { s = score(c0 + j, kbase); }
            w[j] = cached(expf(s - m) * inv);
        }
        workgroupBarrier();
        let cached_rows = min(cn, pos - c0);
        for (var r = 0u; r < PER; r++) {
            let d = li + 64u * r;
            if (d < DV) {
                var s = acc[r];
                for (var j = 0u; j < cached_rows; j++) { s += w[j] * vload((c0 + j) * pu(7u) + vbase + d); }
                if (cached_rows < cn) { s += w[cached_rows] * vn[d]; }
                acc[r] = s;
            }
        }
        workgroupBarrier();
    }
    for (var r = 0u; r < PER; r++) {
        let d = li + 64u * r;
        if (d < DV) { O[at(14u, d, h, 0u, 0u)] = acc[r]; }
    }
}
