// Out[n, t] = Σ_s In[n, s, t] · Weights[s, t]: the chosen experts' outputs
// combined. When word 18 is set it also writes F = Out + E, the residual
// add after it, a dispatch less a mixture-of-experts layer. Each product
// is rounded before its add, as the CPU's. Words: 0 N, 1 S, 2 T, In at 3,
// Weights at 8, Out at 13, E at 19, F at 24, 29 zero (nofuse).
//!use common
//!use nofuse
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> Wt: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;

const ZERO_WORD = 29u;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let i = group_index(wid, nwg) * 64u + li;
    let N = pu(0u);
    if (i >= N * pu(2u)) { return; }
    let n = i % N;
    let t = i / N;
    var y = 0.0;
    for (var s = 0u; s < pu(1u); s++) {
        y += nofuse(Wt[at(8u, s, t, 0u, 0u)] * X[at(3u, n, s, t, 0u)]);
    }
    O[at(13u, n, t, 0u, 0u)] = y;
    if (pu(18u) != 0u) { F[at(24u, n, t, 0u, 0u)] = y + E[at(19u, n, t, 0u, 0u)]; }
}
