// Causal attention as attention.wgsl, for four query heads that share a
// key head and QT neighbouring tokens of one sequence, one workgroup per
// (four heads, QT tokens): each key and value row is read once for the
// 4·QT queries, where attention.wgsl reads it once a (head, token). A
// prefill's queries all read the same cache rows, and what a key or value
// pair costs beyond its multiply-adds (its address, its load, unpacking
// it) is shared by the queries that use it: the kernel's instructions,
// not its loads, are its time (bench/JOURNAL.md).
// Each (head, token)'s sums are attention.wgsl's, lane g of a vec4 and
// token τ's copy doing what its workgroup does, in the same order, so the
// results are the same bits. Words: attentionKernelParams; H / KV heads a
// multiple of 4. A workgroup's tokens of one sequence share its cache
// rows; tokens of several (gpu.Place allows it) walk them once a token.
// Built for head sizes up to MAXD (a multiple of 128 the backend declares,
// decode "TYPE@MAXD"), which sizes the queries' workgroup memory and QT.
//!use common
//!use expf
//!use step
//!decode
const WG = 64u;
const PER = MAXD / WG; // output values per thread and token
// QT is four where heads are at most 128 values (a thread then sums one
// value pair a token, so four tokens' sums take the registers one token
// of the largest heads takes), else one. headTokens in ops.go is the same.
const QT = select(1u, 4u, MAXD <= 128u);
// attend.wgsl's row groups: SCH rows at a time, SLANES threads to a row,
// a lane's pairs KSTEP apart.
const SCH = 16u;
const SLANES = 4u;
const KSTEP = 2u * SLANES;
@group(0) @binding(2) var<storage, read> Q: array<f32>;
@group(0) @binding(3) var<storage, read> K: array<u32>;
@group(0) @binding(4) var<storage, read> V: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

// Token τ of the workgroup (τ = 0 the last of the step's tokens it takes)
// has its query at q4[τ·MAXD ..], the lanes' partial scores of a row
// group at red4[τ·WG ..], then its scores at sc4[τ·SCH ..] and weights at
// w4[τ·SCH ..], and at ga[τ] the rescale of its sums for the group, then
// 1 / its weights' sum.
var<workgroup> q4: array<Held4, QT * MAXD>;
var<workgroup> w4: array<vec4<f32>, QT * SCH>;
var<workgroup> red4: array<vec4<f32>, QT * WG>;
var<workgroup> sc4: array<vec4<f32>, QT * SCH>;
var<workgroup> ga: array<vec4<f32>, QT>;

// Scores4 is a lane's partial scores of one row for the QT tokens (s0
// alone where QT is one).
struct Scores4 { s0: vec4<f32>, s1: vec4<f32>, s2: vec4<f32>, s3: vec4<f32> }

// qk_tokens adds key pair k (elements d, d+1) to each token's scores:
// attend.wgsl's kpart for the four heads, one pair at a time per token.
fn qk_pair4(s: vec4<f32>, d: u32, k: vec2<f32>) -> vec4<f32> { return s + (held4(q4[d]) * k.x + held4(q4[d + 1u]) * k.y); }
fn qk_tokens(s: Scores4, d: u32, k: vec2<f32>) -> Scores4 {
    var r = s;
    r.s0 = qk_pair4(s.s0, d, k);
    if (QT > 1u) {
        r.s1 = qk_pair4(s.s1, MAXD + d, k);
        r.s2 = qk_pair4(s.s2, 2u * MAXD + d, k);
        r.s3 = qk_pair4(s.s3, 3u * MAXD + d, k);
    }
    return r;
}

// kpart_tokens is lane's share of each query · (the key starting at cache
// element row): eight pairs loaded, then added in order.
fn kpart_tokens(row: u32, lane: u32) -> Scores4 {
    let DK = pu(P_DK);
    var s = Scores4(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    var d = 2u * lane;
    for (; d + 7u * KSTEP + 1u < DK; d += 8u * KSTEP) {
        let r = row + d;
        let k0 = kload2(r);
        let k1 = kload2(r + KSTEP);
        let k2 = kload2(r + 2u * KSTEP);
        let k3 = kload2(r + 3u * KSTEP);
        let k4 = kload2(r + 4u * KSTEP);
        let k5 = kload2(r + 5u * KSTEP);
        let k6 = kload2(r + 6u * KSTEP);
        let k7 = kload2(r + 7u * KSTEP);
        s = qk_tokens(s, d, k0);
        s = qk_tokens(s, d + KSTEP, k1);
        s = qk_tokens(s, d + 2u * KSTEP, k2);
        s = qk_tokens(s, d + 3u * KSTEP, k3);
        s = qk_tokens(s, d + 4u * KSTEP, k4);
        s = qk_tokens(s, d + 5u * KSTEP, k5);
        s = qk_tokens(s, d + 6u * KSTEP, k6);
        s = qk_tokens(s, d + 7u * KSTEP, k7);
    }
    for (; d + 1u < DK; d += KSTEP) { s = qk_tokens(s, d, kload2(row + d)); }
    if (DK % 2u == 1u && lane == 0u) {
        let k = kload(row + DK - 1u);
        s.s0 += held4(q4[DK - 1u]) * k;
        if (QT > 1u) {
            s.s1 += held4(q4[MAXD + DK - 1u]) * k;
            s.s2 += held4(q4[2u * MAXD + DK - 1u]) * k;
            s.s3 += held4(q4[3u * MAXD + DK - 1u]) * k;
        }
    }
    return s;
}

// group_scores puts each token's scaled scores of rows j0 .. j0+SCH-1
// (those below n, the most rows a token of the workgroup attends to) in
// sc4, summed as attention.wgsl's group_scores sums them. Call it from
// uniform control flow.
fn group_scores(li: u32, j0: u32, n: u32, kbase: u32) {
    let j = j0 + li / SLANES;
    var s = Scores4(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    if (j < n) { s = kpart_tokens(j * pu(P_KEY_STRIDE) + kbase, li % SLANES); }
    red4[li] = s.s0;
    if (QT > 1u) {
        red4[WG + li] = s.s1;
        red4[2u * WG + li] = s.s2;
        red4[3u * WG + li] = s.s3;
    }
    workgroupBarrier();
    if (li < QT * SCH) {
        let r = (li / SCH) * WG + (li % SCH) * SLANES;
        var t = vec4<f32>(0.0);
        for (var l = 0u; l < SLANES; l++) { t += red4[r + l]; }
        sc4[li] = t * pf(P_SCALE);
    }
    workgroupBarrier();
}

// group_max is m and the cn scores' maximum of the token whose scores
// start at sc4[o], group_sum the sum of its cn weights, each in row order
// (zero plus the first weight is that weight, so a full group's sum
// starts from it). A full group's sixteen values are loaded before they
// are combined: the loop of one load a turn, which the driver keeps
// rolled, waits out each load in turn.
fn group_max(m: vec4<f32>, cn: u32, o: u32) -> vec4<f32> {
    if (cn == SCH) {
        let s = full_group(false, o);
        return max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(max(m, s[0]), s[1]), s[2]), s[3]), s[4]), s[5]),
            s[6]), s[7]), s[8]), s[9]), s[10]), s[11]), s[12]), s[13]), s[14]), s[15]);
    }
    var gm = m;
    for (var i = 0u; i < cn; i++) { gm = max(gm, sc4[o + i]); }
    return gm;
}
fn group_sum(cn: u32, o: u32) -> vec4<f32> {
    if (cn == SCH) {
        let e = full_group(true, o);
        return ((((((((((((((e[0] + e[1]) + e[2]) + e[3]) + e[4]) + e[5]) + e[6]) + e[7]) + e[8]) + e[9]) + e[10]) + e[11])
            + e[12]) + e[13]) + e[14]) + e[15];
    }
    var gs = vec4<f32>(0.0);
    for (var i = 0u; i < cn; i++) { gs += w4[o + i]; }
    return gs;
}
// full_group is a full row group's sixteen weights (or scores) from o,
// each read once, indexed by constants only (kept in registers).
fn full_group(weights: bool, o: u32) -> array<vec4<f32>, SCH> {
    if (weights) {
        return array<vec4<f32>, SCH>(w4[o], w4[o + 1u], w4[o + 2u], w4[o + 3u], w4[o + 4u], w4[o + 5u], w4[o + 6u], w4[o + 7u],
            w4[o + 8u], w4[o + 9u], w4[o + 10u], w4[o + 11u], w4[o + 12u], w4[o + 13u], w4[o + 14u], w4[o + 15u]);
    }
    return array<vec4<f32>, SCH>(sc4[o], sc4[o + 1u], sc4[o + 2u], sc4[o + 3u], sc4[o + 4u], sc4[o + 5u], sc4[o + 6u], sc4[o + 7u],
        sc4[o + 8u], sc4[o + 9u], sc4[o + 10u], sc4[o + 11u], sc4[o + 12u], sc4[o + 13u], sc4[o + 14u], sc4[o + 15u]);
}

fn expf4(x: vec4<f32>) -> vec4<f32> { return vec4<f32>(expf(x.x), expf(x.y), expf(x.z), expf(x.w)); }

// A thread's sums of value pair (d, d+1) for the four heads, weighted by
// exp(score − m); main keeps up to five of them in named variables (PER /
// 2 of one token, or one pair of each of four: an array indexed in a loop
// may be kept in memory by the driver). Heads are at most 640 values
// (checkAttention refuses longer).
const_assert PER <= 10u;
const_assert QT == 1u || PER == 2u;
struct VPair { x: vec4<f32>, y: vec4<f32> }
// Rows is the row group being added for one token: its first row, its
// length, where the head's values start, the rows' stride, and the
// rescale of the sums.
struct Rows { j0: u32, cn: u32, vbase: u32, vs: u32, alpha: vec4<f32> }

// value_rows_of4 is the value pairs at o of four rows vs apart, loaded
// before any is added.
fn value_rows_of4(o: u32, vs: u32) -> array<vec2<f32>, 4> {
    return array<vec2<f32>, 4>(vload2(o), vload2(o + vs), vload2(o + 2u * vs), vload2(o + 3u * vs));
}

// add_row is p plus value pair v weighted by w.
fn add_row(p: VPair, w: vec4<f32>, v: vec2<f32>) -> VPair { return VPair(p.x + w * v.x, p.y + w * v.y); }

// value_rows is p rescaled and the group's weighted value pairs added in
// order, four rows loaded before they are added; p as it is past DV.
// For the one token of a workgroup of QT one.
fn value_rows(p: VPair, d: u32, g: Rows) -> VPair {
    if (d >= pu(P_DV)) { return p; }
    var s = VPair(p.x * g.alpha, p.y * g.alpha);
    let vs = g.vs;
    var j = 0u;
    for (; j + 3u < g.cn; j += 4u) {
        let v = value_rows_of4((g.j0 + j) * vs + g.vbase + d, vs);
        s = add_row(s, w4[j], v[0]);
        s = add_row(s, w4[j + 1u], v[1]);
        s = add_row(s, w4[j + 2u], v[2]);
        s = add_row(s, w4[j + 3u], v[3]);
    }
    for (; j < g.cn; j++) { s = add_row(s, w4[j], vload2((g.j0 + j) * vs + g.vbase + d)); }
    return s;
}

// Pairs4 is value pair d's sums of each of four tokens.
struct Pairs4 { a: VPair, b: VPair, c: VPair, e: VPair }

// rescaled is p times token τ's rescale where the group has rows of it
// (cn > 0), else p.
fn rescaled(p: VPair, cn: u32, tau: u32) -> VPair {
    if (cn == 0u) { return p; }
    let a = ga[tau];
    return VPair(p.x * a, p.y * a);
}

// value_rows4 is value_rows for the four tokens of a workgroup of QT four,
// each row loaded once for them: token τ adds its first cn[τ] rows of
// the group (cn[τ] is zero where the group lies past its last row, or
// where another thread sums the token's pair d: its sums are then left as
// they are).
fn value_rows4(p: Pairs4, d: u32, j0: u32, cn: vec4<u32>, vbase: u32, vs: u32) -> Pairs4 {
    if (d >= pu(P_DV)) { return p; }
    var s = Pairs4(rescaled(p.a, cn.x, 0u), rescaled(p.b, cn.y, 1u), rescaled(p.c, cn.z, 2u), rescaled(p.e, cn.w, 3u));
    let most = max(max(cn.x, cn.y), max(cn.z, cn.w));
    var j = 0u;
    for (; j + 3u < most; j += 4u) {
        let v = value_rows_of4((j0 + j) * vs + vbase + d, vs);
        s = rows4(s, j, v[0], cn);
        s = rows4(s, j + 1u, v[1], cn);
        s = rows4(s, j + 2u, v[2], cn);
        s = rows4(s, j + 3u, v[3], cn);
    }
    for (; j < most; j++) { s = rows4(s, j, vload2((j0 + j) * vs + vbase + d), cn); }
    return s;
}
// rows4 adds row j's value pair v to the sums of each token it is a row of.
fn rows4(s: Pairs4, j: u32, v: vec2<f32>, cn: vec4<u32>) -> Pairs4 {
    var r = s;
    if (j < cn.x) { r.a = add_row(s.a, w4[j], v); }
    if (j < cn.y) { r.b = add_row(s.b, w4[SCH + j], v); }
    if (j < cn.z) { r.c = add_row(s.c, w4[2u * SCH + j], v); }
    if (j < cn.w) { r.e = add_row(s.e, w4[3u * SCH + j], v); }
    return r;
}

// store_pair writes value pair (d, d+1) of the four heads h0.. of token
// t, each scaled by its 1 / weights' sum; what lies past DV is dropped.
fn store_pair(p: VPair, d: u32, h0: u32, t: u32, inv: vec4<f32>) {
    let DV = pu(P_DV);
    if (d < DV) {
        let a = p.x * inv;
        O[at(P_OUT, d, h0, t, 0u)] = a.x;
        O[at(P_OUT, d, h0 + 1u, t, 0u)] = a.y;
        O[at(P_OUT, d, h0 + 2u, t, 0u)] = a.z;
        O[at(P_OUT, d, h0 + 3u, t, 0u)] = a.w;
    }
    if (d + 1u < DV) {
        let a = p.y * inv;
        O[at(P_OUT, d + 1u, h0, t, 0u)] = a.x;
        O[at(P_OUT, d + 1u, h0 + 1u, t, 0u)] = a.y;
        O[at(P_OUT, d + 1u, h0 + 2u, t, 0u)] = a.z;
        O[at(P_OUT, d + 1u, h0 + 3u, t, 0u)] = a.w;
    }
}

// Own is the value pair (its first element d) whose sums a thread keeps
// in a workgroup of QT four, and for which tokens (1) or not (0).
struct Own { d: u32, tokens: vec4<u32> }

// own_tokens is thread li's: pair li of every token where a value row
// has more than 64 values; where it has at most 64, pair li of tokens 0
// and 1 for the first 32 threads and pair li − 32 of tokens 2 and 3 for
// the rest, who would otherwise have no pair to sum.
fn own_tokens(li: u32) -> Own {
    if (pu(P_DV) > 64u) { return Own(2u * li, vec4<u32>(1u)); }
    if (li < 32u) { return Own(2u * li, vec4<u32>(1u, 1u, 0u, 0u)); }
    return Own(2u * (li - 32u), vec4<u32>(0u, 0u, 1u, 1u));
}

// group_rows is each token's rows of the group from j0: at most SCH, zero
// past its last.
fn group_rows(n: vec4<u32>, j0: u32) -> vec4<u32> {
    return select(min(n - vec4<u32>(j0), vec4<u32>(SCH)), vec4<u32>(0u), n <= vec4<u32>(j0));
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let H = pu(P_H);
    let HG = H / 4u;
    let T = pu(P_T);
    if (g >= HG * ((T + QT - 1u) / QT)) { return; }
    let h0 = (g % HG) * 4u;
    // The last tokens first, as attention.wgsl takes them: token τ of
    // the workgroup is step token T − 1 − (k·QT + τ), where it exists.
    let k0 = (g / HG) * QT;
    let kvh = h0 / (H / pu(P_HKV));
    let DK = pu(P_DK);
    // Each token's rows (its position + 1; zero for a token past the
    // step's first), and the most of them.
    var n = vec4<u32>(0u);
    for (var tau = 0u; tau < QT; tau++) {
        if (k0 + tau < T) { n[tau] = tok_pos(T - 1u - k0 - tau) + 1u; }
    }
    for (var tau = 0u; tau < QT; tau++) {
        if (k0 + tau >= T) { break; }
        let t = T - 1u - k0 - tau;
        for (var d = li; d < DK; d += WG) {
            var x = vec4<f32>(Q[at(P_Q, d, h0, t, 0u)], Q[at(P_Q, d, h0 + 1u, t, 0u)], Q[at(P_Q, d, h0 + 2u, t, 0u)], Q[at(P_Q, d, h0 + 3u, t, 0u)]);
            if (HALF_CACHE) { x = vec4<f32>(half(x.x), half(x.y), half(x.z), half(x.w)); }
            q4[tau * MAXD + d] = hold4(x);
        }
    }
    workgroupBarrier();
    // Tokens of one sequence share its cache rows, and one walk over them
    // serves them all; tokens of several sequences (a step's gpu.Place
    // may mix them) take a walk each.
    let t0 = T - 1u - k0;
    let b0 = tok_base(t0);
    var one_seq = true;
    for (var tau = 1u; tau < QT; tau++) {
        if (k0 + tau < T && tok_base(t0 - tau) != b0) { one_seq = false; }
    }
    let vs = pu(P_VALUE_STRIDE);
    var p0 = VPair(vec4<f32>(0.0), vec4<f32>(0.0));
    var p1 = p0;
    var p2 = p0;
    var p3 = p0;
    var p4 = p0;
    var pt = Pairs4(p0, p0, p0, p0);
    // The value pair (and tokens) whose sums this thread keeps where QT
    // is four: the same for every row group and for the stores.
    let own = own_tokens(li);
    // Thread li < QT·SCH keeps token li / SCH's running maximum and, the
    // first of its SCH, the token's weights' sum.
    let mine = min(li / SCH, QT - 1u);
    var m = vec4<f32>(-3.4e38);
    var l = vec4<f32>(0.0);
    for (var walk = 0u; walk < select(QT, 1u, one_seq); walk++) {
        var nw = n;
        var base = b0;
        if (!one_seq) {
            nw = select(vec4<u32>(0u), n, vec4<u32>(walk) == vec4<u32>(0u, 1u, 2u, 3u));
            base = tok_base(t0 - min(walk, t0));
        }
        let nmax = max(max(nw.x, nw.y), max(nw.z, nw.w));
        let kbase = base * pu(P_KEY_STRIDE) + kvh * DK;
        let vbase = base * pu(P_VALUE_STRIDE) + kvh * pu(P_VALUE_HEAD);
        for (var j0 = 0u; j0 < nmax; j0 += SCH) {
            group_scores(li, j0, nmax, kbase);
            let cn = group_rows(nw, j0);
            let cm = cn[mine];
            // A token's running maximum is its SCH threads' (each needs it for
            // its weight), the sums' rescale the first's for all, and so the
            // weights' sum: done by every thread they cost as much as a value
            // pair's sums (the same values, however many threads compute them).
            // The first writes ga only once every thread has passed the
            // barriers of the next group's scores, so after all have read it.
            if (li < QT * SCH && cm > 0u) {
                let o = mine * SCH;
                let r = li % SCH;
                let gm = group_max(m, cm, o);
                if (r == 0u) { ga[mine] = expf4(m - gm); }
                m = gm;
                if (r < cm) { w4[li] = expf4(sc4[li] - m); }
            }
            workgroupBarrier();
            if (li < QT * SCH && li % SCH == 0u && cm > 0u) { l = l * ga[mine] + group_sum(cm, mine * SCH); }
            if (QT == 1u) {
                let rows = Rows(j0, cn.x, vbase, vs, ga[0]);
                p0 = value_rows(p0, 2u * li, rows);
                if (PER / 2u > 1u) { p1 = value_rows(p1, 2u * li + 128u, rows); }
                if (PER / 2u > 2u) { p2 = value_rows(p2, 2u * li + 256u, rows); }
                if (PER / 2u > 3u) { p3 = value_rows(p3, 2u * li + 384u, rows); }
                if (PER / 2u > 4u) { p4 = value_rows(p4, 2u * li + 512u, rows); }
            } else {
                pt = value_rows4(pt, own.d, j0, cn * own.tokens, vbase, vs);
            }
        }
    }
    // Every thread has read the last group's ga before it is replaced.
    workgroupBarrier();
    if (li < QT * SCH && li % SCH == 0u) { ga[mine] = 1.0 / l; }
    workgroupBarrier();
    if (QT == 1u) {
        let inv = ga[0];
        store_pair(p0, 2u * li, h0, t0, inv);
        if (PER / 2u > 1u) { store_pair(p1, 2u * li + 128u, h0, t0, inv); }
        if (PER / 2u > 2u) { store_pair(p2, 2u * li + 256u, h0, t0, inv); }
        if (PER / 2u > 3u) { store_pair(p3, 2u * li + 384u, h0, t0, inv); }
        if (PER / 2u > 4u) { store_pair(p4, 2u * li + 512u, h0, t0, inv); }
    } else {
        // (QT − 1 bounds the indices for naga, which checks constant
        // indices of the QT = 1 build too.)
        if (own.tokens.x != 0u) { store_pair(pt.a, own.d, h0, t0, ga[0]); }
        if (own.tokens.y != 0u && k0 + 1u < T) { store_pair(pt.b, own.d, h0, t0 - 1u, ga[min(1u, QT - 1u)]); }
        if (own.tokens.z != 0u && k0 + 2u < T) { store_pair(pt.c, own.d, h0, t0 - 2u, ga[min(2u, QT - 1u)]); }
        if (own.tokens.w != 0u && k0 + 3u < T) { store_pair(pt.e, own.d, h0, t0 - 3u, ga[min(3u, QT - 1u)]); }
    }
}
