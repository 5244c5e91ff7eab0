// What the decode kernels share that take the step's new cache row into
// workgroup memory beside the query (attention_step, mla_step): the row
// kn, its RMSNorm factor, the rope of both, and the scores of
// attention_scores.wgsl with row pos read from kn, never from the cache
// another workgroup is writing. Words: stepParams.
var<workgroup> kn: array<f32, 640>;

// rms_kn is the RMSNorm factor of kn's first n values, summed as
// rmsnorm.wgsl's 64 threads sum a row.
fn rms_kn(li: u32, n: u32, eps: f32) -> f32 {
    var s = 0.0;
    for (var d = li; d < n; d += 64u) { s += kn[d] * kn[d]; }
    return 1.0 / sqrt(reduce_sum(li, s) / f32(n) + eps);
}

// rope_step rotates the query and the new row by position pos, their
// rotated elements starting at element off, then rounds both as the cache
// stores them. Call from uniform control flow.
fn rope_step(li: u32, off: u32, pos: u32) {
    for (var p = li; p < pu(P_ROPE_DIMS) / 2u; p += 64u) {
        let ab = rope_pair(p) + vec2<u32>(off, off);
        let cs = rope_cs(p, pos);
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
    for (var d = li; d < pu(P_DK); d += 64u) {
        q[d] = cached(q[d]);
        kn[d] = cached(kn[d]);
    }
    workgroupBarrier();
}

// kn_part is kpart with the new row kn as the key: the same products in
// the same order as that row read back from the cache.
fn kn_part(lane: u32) -> f32 {
    let DK = pu(P_DK);
    var s = 0.0;
    var d = 2u * lane;
    for (; d + 7u * KSTEP + 1u < DK; d += 8u * KSTEP) {
        let k = Pairs8(vec4<f32>(kn2(d), kn2(d + KSTEP)), vec4<f32>(kn2(d + 2u * KSTEP), kn2(d + 3u * KSTEP)),
            vec4<f32>(kn2(d + 4u * KSTEP), kn2(d + 5u * KSTEP)), vec4<f32>(kn2(d + 6u * KSTEP), kn2(d + 7u * KSTEP)));
        s = qk_pairs8(s, d, k);
    }
    for (; d + 1u < DK; d += KSTEP) { s = qk_pair(s, d, kn2(d)); }
    if (DK % 2u == 1u && lane == 0u) { s += q[DK - 1u] * kn[DK - 1u]; }
    return s;
}
fn kn2(d: u32) -> vec2<f32> { return vec2<f32>(kn[d], kn[d + 1u]); }

// step_scores writes score row ht's scores (head h of token t, h + H·t)
// against its sequence's cache rows c·SCH .. c·SCH+SCH-1 up to pos, whose
// keys start at element kbase of the cache (the sequence's first row,
// then the head's place in a row). Call from uniform control flow.
fn step_scores(li: u32, c: u32, ht: u32, kbase: u32, pos: u32) {
    let lane = li % SLANES;
    for (var r = li / SLANES; r < SCH; r += WG / SLANES) {
        let j = c * SCH + r;
        var s = 0.0;
        if (j < pos) {
            s = kpart(j * pu(P_KEY_STRIDE) + kbase, lane);
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
        SC[ht * pu(P_CHUNKS) * SCH + j] = s * pf(P_SCALE);
    }
}
// step_chunks is step_scores of chunks c0, c0+Spread, ... up to pos (a
// workgroup's share of a score row, attention_scores.wgsl's split). Call
// from uniform control flow.
fn step_chunks(li: u32, c0: u32, ht: u32, kbase: u32, pos: u32) {
    for (var c = c0; c * SCH <= pos; c += pu(P_SPREAD)) {
        step_scores(li, c, ht, kbase, pos);
        // the next chunk's products overwrite part
        workgroupBarrier();
    }
}
