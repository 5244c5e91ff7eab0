// Out[n, t] = Σ_s In[n, s, t] · Weights[s, t]: the chosen experts' outputs
// combined. With Add it also writes F = Out + E, the residual add after
// it, a dispatch less a mixture-of-experts layer. Each product is rounded
// before its add, as the CPU's. Words: weightedSumParams.
//!use common
//!use nofuse
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> Wt: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let i = group_index(wid, nwg) * 64u + li;
    let N = pu(P_N);
    if (i >= N * pu(P_T)) { return; }
    let n = i % N;
    let t = i / N;
    var y = 0.0;
    for (var s = 0u; s < pu(P_S); s++) {
        y += nofuse(Wt[at(P_WEIGHTS, s, t, 0u, 0u)] * X[at(P_IN, n, s, t, 0u)]);
    }
    O[at(P_OUT, n, t, 0u, 0u)] = y;
    if (pu(P_ADD) != 0u) { F[at(P_F, n, t, 0u, 0u)] = y + E[at(P_E, n, t, 0u, 0u)]; }
}
