// Out[n, t] = Σ_k W[k, n] · In[k, t] for the many tokens of a prefill: a
// workgroup computes a tile of TM rows by TT tokens (tile_mul), so each
// weight is read and decoded once per TT tokens where the matvec
// (matmul.wgsl) reads it once per token. Epilogue and words as in
// matmul.wgsl (matmulParams; batched weights: B matrices of N rows, one
// for each index of In's and Out's second dimension).
//!use common
//!tile
//!use tile_mul
//!use silu
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<u32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;

// store writes the sums of rows n0 .. n0+3 of batch b at token t where
// both exist, and the epilogue's result.
fn store(n0: u32, b: u32, t: u32, s4: vec4<f32>) {
    let N = pu(P_N);
    let kind = pu(P_EPILOGUE);
    if (t >= pu(P_T)) { return; }
    for (var i = 0u; i < 4u; i++) {
        let n = n0 + i;
        if (n >= N) { return; }
        let s = s4[i];
        O[at(P_OUT, n, b, t, 0u)] = s;
        if (kind == 0u) { continue; }
        let e = E[at(P_E, n, b, t, 0u)];
        var f = s + e;
        if (kind == 2u) { f = swiglu(e, s); }
        if (kind == 3u) { f = swiglu(s, e); }
        F[at(P_F, n, b, t, 0u)] = f;
    }
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let N = pu(P_N);
    let T = pu(P_T);
    let tiles = (N + TM - 1u) / TM;
    let ttiles = (T + TT - 1u) / TT;
    // Token tiles fastest: the workgroups that run side by side read the
    // same row tile's weights, so its reads after the first come from L2
    // rather than memory (each row tile is read once per token tile).
    let n0 = (g / ttiles % tiles) * TM;
    let t0 = (g % ttiles) * TT;
    let b = g / (tiles * ttiles);
    // The grid may hold a few workgroups past the last tile (it spills into
    // y): the whole workgroup leaves, so barriers stay uniform.
    if (b >= pu(P_B)) { return; }
    // Rows and tokens past the edge repeat the last one; their sums are
    // dropped.
    let rb = pu(P_BASE) + (b * N + min(n0 + loaded(li), N - 1u)) * pu(P_ROW_BYTES);
    let xo = at(P_IN, 0u, b, min(t0 + loaded(li), T - 1u), 0u);
    let acc = tile_product(li, rb, xo, pu(P_IN + 1u), T - t0);
    let mb = block(li);
    let n = n0 + 4u * mb.x;
    let t = t0 + 4u * mb.y;
    store(n, b, t, acc.c0);
    store(n, b, t + 1u, acc.c1);
    store(n, b, t + 2u, acc.c2);
    store(n, b, t + 3u, acc.c3);
}
