// Rounds activations the way the CPU backend (and llama.cpp) feeds them to
// a product with quantized or half weights, so both backends multiply the
// same numbers: mode 0, 8-bit blocks of 32 with an f16 scale (Q8_0, Q8_1);
// mode 1, 8-bit blocks of 256 with an f32 scale from the signed extreme
// (Q8_K); mode 2, f16; mode 3, unchanged (a packed copy). The result is
// written as floats, packed {K, rows}, and for modes 0 and 1 the blocks'
// scales after them (round_block's write_scales). One thread per value and 256 a
// workgroup, so a block's extreme is a workgroup reduction rather than a
// serial loop (K is whole blocks, so blocks never straddle workgroups).
// Words: 0 K, 1 rows, 2 block size, 3 mode, 4 In's dim 1 (to split the row
// index), In at 5.
//!use common
//!use round_block
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> Y: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let K = pu(0u);
    let mode = pu(3u);
    let u = group_index(wid, nwg) * 256u + li;
    let live = u < K * pu(1u);
    let row = u / K;
    var x = 0.0;
    if (live) { x = X[at(5u, u % K, row % pu(4u), row / pu(4u), 0u)]; }
    if (mode >= 2u) {
        if (live) { Y[u] = select(x, half(x), mode == 2u); }
        return;
    }
    let y = round_block(x, li, pu(2u), mode);
    if (live) {
        Y[u] = y;
        write_scales(u, K * pu(1u), pu(2u));
    }
}
