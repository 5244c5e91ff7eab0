// Rounds activations the way the CPU backend (and llama.cpp) feeds them to
// a product with quantized or half weights, so both backends multiply the
// same numbers: mode 0, 8-bit blocks of 32 with an f16 scale (Q8_0, Q8_1);
// mode 1, 8-bit blocks of 256 with an f32 scale from the signed extreme
// (Q8_K); mode 2, f16; mode 3, unchanged (a packed copy); the results as
// floats, packed {K, rows}. Modes 4 and 5 (the packed integers the
// integer products read, round_store) take quantize_packed.wgsl, a run of
// values a thread. One thread per value and 256 a workgroup, so a block's extreme is a workgroup reduction rather than a
// serial loop (K is whole blocks, so blocks never straddle workgroups).
// A second tensor (X2 into Y2, in the same mode) may follow in the same
// dispatch from workgroup P_GROUPS on: the input of the next product,
// ready already (a shared expert's, beside the chosen experts' input),
// which saves that product its own dispatch. A dispatch of one tensor
// binds it twice. Words: quantizeActParams.
//!use common
//!use round_block
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> Y: array<u32>;
@group(0) @binding(4) var<storage, read> X2: array<f32>;
@group(0) @binding(5) var<storage, read_write> Y2: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let second = g >= pu(P_GROUPS);
    let K = pu(select(P_FIRST_K, P_SECOND_K, second));
    let rows = pu(select(P_FIRST_ROWS, P_SECOND_ROWS, second));
    let mode = pu(P_MODE);
    let u = (g - select(0u, pu(P_GROUPS), second)) * 256u + li;
    let live = u < K * rows;
    let row = u / K;
    let d1 = pu(select(P_FIRST_D1, P_SECOND_D1, second));
    var x = 0.0;
    if (live) {
        if (second) {
            x = X2[at(P_SECOND_IN, u % K, row % d1, row / d1, 0u)];
        } else {
            x = X[at(P_FIRST_IN, u % K, row % d1, row / d1, 0u)];
        }
    }
    // No return that depends on the thread before round_block's barriers:
    // browsers reject the kernel where one might skip them.
    let st = round_store(x, li, u % K, K, pu(P_BLOCK), mode);
    let at = row * K + st.at;
    if (live && st.write && second) { Y2[at] = st.bits; }
    if (live && st.write && !second) { Y[at] = st.bits; }
}
