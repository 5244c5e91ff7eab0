// The body of the elementwise kernels: Out = apply(A, B) over Out's shape,
// A, B and Out at their locations; B may broadcast (stride 0). Words:
// binaryParams.
//!use common
@group(0) @binding(2) var<storage, read_write> A: array<f32>;
@group(0) @binding(3) var<storage, read_write> B: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let i = group_index(wid, nwg) * 64u + li;
    if (i >= pu(P_COUNT)) { return; }
    let c = coords(P_SHAPE, i);
    O[at(P_OUT, c.x, c.y, c.z, c.w)] = apply(A[at(P_A, c.x, c.y, c.z, c.w)], B[at(P_B, c.x, c.y, c.z, c.w)]);
}
