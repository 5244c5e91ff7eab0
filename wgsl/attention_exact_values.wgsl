// Exact attention, last pass: output d of a query head and token is the
// weights times value column d, position j a fused multiply-add into
// lane j % lanes() (ggml's product over the transposed value cache), the
// lanes reduced as that product reduces them. Each lane is a chain of its
// own, so a thread takes one: a workgroup of 64 threads is one output's
// 64 lanes, or four outputs' 16.
//!use attention_exact
//!use exact_lanes64
//!decode
@group(0) @binding(2) var<storage, read_write> SC: array<f32>;
@group(0) @binding(3) var<storage, read_write> V: array<u32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
// Declared for the cache decoder's key reads; never bound.
@group(0) @binding(5) var<storage, read_write> K: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let DV = pu(1u);
    let L = lanes();
    let lane = li % L;
    let x = head_token(group_index(wid, nwg) * (64u / L) + li / L, DV);
    var a = 0.0;
    if (x.ok) {
        let n = positions(x.t);
        let col = (x.h / (pu(2u) / pu(4u))) * pu(8u) + x.i;
        for (var j = lane; j < n; j += L) { a = fma_exact(SC[x.row + j], vload(j * pu(7u) + col), a); }
    }
    chains[li] = a;
    workgroupBarrier();
    if (!x.ok || lane != 0u) { return; }
    O[at(14u, x.i, x.h, x.t, 0u)] = chains_total(li, L == 64u);
}

