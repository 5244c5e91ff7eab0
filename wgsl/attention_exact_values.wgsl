// Exact attention, last pass: output d of a query head and token is the
// weights times value column d, position j a fused multiply-add into
// lane j % lanes() (ggml's product over the transposed value cache), the
// lanes reduced as that product reduces them. One thread an output.
//!use attention_exact
//!decode
@group(0) @binding(2) var<storage, read_write> SC: array<f32>;
@group(0) @binding(3) var<storage, read_write> V: array<u32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
// Declared for the cache decoder's key reads; never bound.
@group(0) @binding(5) var<storage, read_write> K: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let DV = pu(1u);
    let x = head_token(group_index(wid, nwg) * 64u + li, DV);
    if (!x.ok) { return; }
    let n = positions(x.t);
    let L = lanes();
    let col = (x.h / (pu(2u) / pu(4u))) * pu(8u) + x.i;
    var acc = array<f32, 64>();
    for (var j = 0u; j < n; j++) { acc[j % L] = fma_exact(SC[x.row + j], vload(j * pu(7u) + col), acc[j % L]); }
    var a = array<f32, 16>();
    for (var l = 0u; l < 16u; l++) { a[l] = acc[l]; }
    if (L == 64u) {
        for (var l = 0u; l < 16u; l++) { a[l] = (acc[l] + acc[32u + l]) + (acc[16u + l] + acc[48u + l]); }
    }
    O[at(14u, x.i, x.h, x.t, 0u)] = sum_lanes16(a);
}
