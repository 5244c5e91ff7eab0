// matmul_id in the CPU backend's order (matmul_exact): Out[n, s, t] =
// Σ_k W[k, n, IDs[s, t]] · In[k, s', t], s' = s or 0 when In has one row
// per token, one thread an output. Words 0..25 as matmul_id's; 26 the
// order, 27 and 28 In's scales (start, block size), 29 zero (nofuse).
//!use common
//!exact
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;

const ZERO_WORD = 29u;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let u = group_index(wid, nwg) * 64u + li;
    let N = pu(1u);
    let S = pu(2u);
    let n = u % N;
    let s = (u / N) % S;
    let t = u / (N * S);
    if (t >= pu(3u)) { return; }
    let e = IDs[at(12u, s, t, 0u, 0u)];
    var si = s;
    if (pu(6u) == 1u) { si = 0u; }
    let xo = at(7u, 0u, si, t, 0u);
    let out = at(17u, n, s, t, 0u);
    if (e >= pu(22u) && e < pu(23u)) {
        let rb = pu(24u) + ((e - pu(22u)) * N + n) * pu(4u);
        O[out] = exact_dot(rb, xo, pu(27u) + 2u * (xo / pu(28u)), pu(0u), pu(26u));
    } else if (e >= pu(5u) && pu(25u) != 0u) {
        O[out] = 0.0;
    }
}
