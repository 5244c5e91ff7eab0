// RMSNorm of each row: Out = In / sqrt(mean(In²) + eps) · Weight. One
// workgroup per row. Words: 0 row length, 1..2 In's dims 1 and 2 (to split
// the row index), 3 eps, 4 has weight, In at 5, Out at 10, Weight at 15.
//!use common
//!use rms_scale
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> Wt: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

const NT = 64u;

@compute @workgroup_size(NT)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let r = group_index(wid, nwg);
    let n = pu(0u);
    let i1 = r % pu(1u);
    let i2 = (r / pu(1u)) % pu(2u);
    let i3 = r / (pu(1u) * pu(2u));
    let scale = rms_scale(li, i1, i2, i3);
    for (var i = li; i < n; i += NT) {
        var y = X[at(5u, i, i1, i2, i3)] * scale;
        if (pu(4u) != 0u) { y *= Wt[at(15u, i, 0u, 0u, 0u)]; }
        O[at(10u, i, i1, i2, i3)] = y;
    }
}
