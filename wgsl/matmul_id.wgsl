// Out[n, s, t] = Σ_k W[k, n, IDs[s, t]] · In[k, s', t], s' = s or 0 when In
// has one row per token: only the chosen experts' rows are read. One
// workgroup per output. Words: 0 K, 1 N, 2 S, 3 T, 4 row bytes, 5 experts,
// 6 In rows per token, In at 7, IDs at 12, Out at 17. An expert id out of
// range gives zeros.
//!use common
//!decode
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

var<workgroup> red: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let N = pu(1u);
    let S = pu(2u);
    let n = g % N;
    let s = (g / N) % S;
    let t = g / (N * S);
    if (t >= pu(3u)) { return; }
    let e = IDs[at(12u, s, t, 0u, 0u)];
    var si = s;
    if (pu(6u) == 1u) { si = 0u; }
    var acc = 0.0;
    if (e < pu(5u)) {
        let rb = (e * N + n) * pu(4u);
        let xo = at(7u, 0u, si, t, 0u);
        for (var blk = li; blk < pu(0u) / BLOCK; blk += 64u) {
            acc += dot_block(rb, blk, xo + blk * BLOCK);
        }
    }
    red[li] = acc;
    workgroupBarrier();
    for (var w = 32u; w > 0u; w >>= 1u) {
        if (li < w) { red[li] += red[li + w]; }
        workgroupBarrier();
    }
    if (li == 0u) { O[at(17u, n, s, t, 0u)] = red[0]; }
}
