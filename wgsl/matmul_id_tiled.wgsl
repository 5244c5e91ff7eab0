// Out[n, s, t] = Σ_k W[k, n, IDs[s, t]] · In[k, s', t] (s' = s, or 0 when
// In has one row per token) for the many tokens of a prefill, grouped by
// expert (expert_groups): a workgroup computes a tile of TM rows of one
// expert by TT of that expert's (slot, token) pairs (tile_mul), so each
// expert's weights are read once per TT pairs where the matvecs by expert
// id read them once per pair. Group E (ids out of range) writes zeros.
// Words: matmulIDTiledParams.
//!use common
//!tile
//!use tile_mul
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<u32>;
@group(0) @binding(4) var<storage, read> G: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

// pair_at is the j-th pair (s + S·t) of group e, which starts at a.
fn pair_at(a: u32, j: u32) -> u32 { return G[pu(P_EXPERTS) + 2u + a + j]; }

// store writes rows n0 .. n0+3 of column j (of count) of group e's tile
// where both exist: the sums, or zeros for the ids out of range.
fn store(n0: u32, a: u32, j: u32, count: u32, s4: vec4<f32>, zero: bool) {
    if (j >= count) { return; }
    let S = pu(P_S);
    let p = pair_at(a, j);
    for (var i = 0u; i < 4u; i++) {
        let n = n0 + i;
        if (n >= pu(P_N)) { return; }
        O[at(P_OUT, n, p % S, p / S, 0u)] = select(s4[i], 0.0, zero);
    }
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let N = pu(P_N);
    let E = pu(P_EXPERTS);
    let S = pu(P_S);
    let tiles = (N + TM - 1u) / TM;
    let ptiles = (pu(P_T) + TT - 1u) / TT;
    let n0 = (g % tiles) * TM;
    let j0 = (g / tiles % ptiles) * TT;
    let e = g / (tiles * ptiles);
    // Workgroups past the groups, or past their group's pairs, leave whole,
    // so barriers stay uniform.
    if (e > E) { return; }
    let a = G[e];
    let count = G[e + 1u] - a;
    if (j0 >= count) { return; }
    let zero = e == E;
    // Rows and pairs past the edge repeat the last one; their sums are
    // dropped. The zero group reads expert 0's rows, and writes zeros.
    let er = select(e, 0u, zero);
    let rb = pu(P_BASE) + (er * N + min(n0 + loaded(li), N - 1u)) * pu(P_ROW_BYTES);
    let p = pair_at(a, min(j0 + loaded(li), count - 1u));
    var si = p % S;
    if (pu(P_IN_ROWS) == 1u) { si = 0u; }
    let xo = at(P_IN, 0u, si, p / S, 0u);
    let acc = tile_product(li, rb, xo, pu(P_IN + 1u), count - j0);
    let mb = block(li);
    let n = n0 + 4u * mb.x;
    let j = j0 + 4u * mb.y;
    store(n, a, j, count, acc.c0, zero);
    store(n, a, j + 1u, count, acc.c1, zero);
    store(n, a, j + 2u, count, acc.c2, zero);
    store(n, a, j + 3u, count, acc.c3, zero);
}
