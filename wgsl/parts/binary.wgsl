// The body of the elementwise kernels: Out = apply(A, B) over Out's shape
// (words 1..4), with A, B and Out at locations 5, 10 and 15; B may
// broadcast (stride 0). Word 0 is the element count, word 20 a constant.
//!use common
@group(0) @binding(2) var<storage, read_write> A: array<f32>;
@group(0) @binding(3) var<storage, read_write> B: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let i = group_index(wid, nwg) * 64u + li;
    if (i >= pu(0u)) { return; }
    let i0 = i % pu(1u);
    let r1 = i / pu(1u);
    let i1 = r1 % pu(2u);
    let r2 = r1 / pu(2u);
    let i2 = r2 % pu(3u);
    let i3 = r2 / pu(3u);
    O[at(15u, i0, i1, i2, i3)] = apply(A[at(5u, i0, i1, i2, i3)], B[at(10u, i0, i1, i2, i3)]);
}
