// The gate and up products of a SwiGLU feed-forward in one dispatch, for
// two weights of one type and shape read by one (rounded) input: a
// matvec group computes ROWS rows of both, G = gate's W · In and U = up's
// V · In, and writes them and silu(G)·U, a dispatch less a layer than a
// product each. The sums are matmul.wgsl's, in the same order, so the
// results are those of two matmul dispatches bit for bit. V is read by the
// twins of the dot helpers (//!twin: a function cannot take a binding).
// matmul_gate_up_round builds it again on 32-row workgroups that also
// round silu(G)·U for the down product (round_rows, with the words
// Round). Words: gateUpParams (Out is G).
//!use common
//!dot
//!use matvec
//!reduce
//!use silu
//!use round_rows_none
//!twin W V
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;
@group(0) @binding(7) var<storage, read> V: array<u32>;

// The up rows' sums, beside the gate's in acc.
var<private> acc_up: array<f32, ROWS>;

// accumulate_pair is accumulate over W into acc and over V into acc_up in
// one loop, each part of the activations read once for both and both
// weights' loads in flight together; each sum takes its terms in
// accumulate's order. (Twin also makes an unused accumulate_pair_V.)
fn accumulate_pair(xo: u32, row0: u32, rows: u32, li: u32, base: u32, base_v: u32) {
    let rbytes = pu(ROW_BYTES_WORD);
    let units = pu(P_K) / BLOCK * PARTS;
    let last = rows - 1u;
    let r0 = row0 * rbytes;
    let r1 = (row0 + min(1u, last)) * rbytes;
    let r2 = (row0 + min(2u, last)) * rbytes;
    let r3 = (row0 + min(3u, last)) * rbytes;
    var a = load_acc();
    var b = load_rows(&acc_up);
    for (var u = li; u < units; u += WG) {
        let blk = u / PARTS;
        let part = u % PARTS;
        let x = xpart(xo, blk, part);
        a.x += dot_part(base + r0, blk, part, x);
        b.x += dot_part_V(base_v + r0, blk, part, x);
        if (ROWS > 1u) {
            a.y += dot_part(base + r1, blk, part, x);
            b.y += dot_part_V(base_v + r1, blk, part, x);
        }
        if (ROWS > 2u) {
            a.z += dot_part(base + r2, blk, part, x);
            b.z += dot_part_V(base_v + r2, blk, part, x);
        }
        if (ROWS > 3u) {
            a.w += dot_part(base + r3, blk, part, x);
            b.w += dot_part_V(base_v + r3, blk, part, x);
        }
    }
    store_acc(a);
    store_rows(&acc_up, b);
}

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let N = pu(P_N);
    let groups = wg_count(N);
    // this thread's matvec group's rows, and its place in the group
    let n0 = (g % groups) * WG_ROWS + group_row(l.li);
    let li = group_lane(l.li);
    let t = g / groups;
    let live = t < pu(P_T) && n0 < N;
    let xo = at(P_IN, 0u, 0u, t, 0u);
    if (live) { accumulate_pair(xo, n0, N - n0, li, pu(P_BASE), pu(P_BASE_V)); }
    let gs = reduce_rows(l);
    // The second reduction reuses the workgroup memory the first one's
    // totals are still being read from.
    workgroupBarrier();
    acc = acc_up;
    let us = reduce_rows(l);
    let own = live && li < ROWS && n0 + li < N;
    let n = n0 + li;
    let f = swiglu(gs, us);
    let r = at(P_F, n, 0u, t, 0u);
    if (own) {
        O[at(P_OUT, n, 0u, t, 0u)] = gs;
        E[at(P_U, n, 0u, t, 0u)] = us;
        F[r] = f;
    }
    round_rows(l.li, own, f, r, RoundRows(pu(P_ROUND_MODE), pu(P_ROUND_OFF), pu(P_ROUND_STRIDE), pu(P_ROUND_K), pu(P_ROUND_ROWS)));
}
