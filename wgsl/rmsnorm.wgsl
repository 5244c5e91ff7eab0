// RMSNorm of each row: Out = In / sqrt(mean(In²) + eps) · Weight. One
// workgroup per row. Words: rmsNormParams.
//!use common
//!use rms_scale
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> Wt: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

const NT = 64u;

@compute @workgroup_size(NT)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let r = group_index(wid, nwg);
    let n = pu(P_N);
    let i1 = r % pu(P_D1);
    let i2 = (r / pu(P_D1)) % pu(P_D2);
    let i3 = r / (pu(P_D1) * pu(P_D2));
    let scale = rms_scale(li, i1, i2, i3);
    for (var i = li; i < n; i += NT) {
        var y = X[at(P_IN, i, i1, i2, i3)] * scale;
        if (pu(P_HAS_WEIGHT) != 0u) { y *= Wt[at(P_WEIGHT, i, 0u, 0u, 0u)]; }
        O[at(P_OUT, i, i1, i2, i3)] = y;
    }
}
