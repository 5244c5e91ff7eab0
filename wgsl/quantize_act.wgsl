// Rounds activations the way the CPU backend (and llama.cpp) feeds them to
// a product with quantized or half weights, so both backends multiply the
// same numbers: mode 0, 8-bit blocks of 32 with an f16 scale (Q8_0, Q8_1);
// mode 1, 8-bit blocks of 256 with an f32 scale from the signed extreme
// (Q8_K); mode 2, f16; mode 3, unchanged (a packed copy). The result is written as floats, packed {K, rows}.
// One thread per block. Words: 0 K, 1 rows, 2 block size, 3 mode,
// 4 In's dim 1 (to split the row index), In at 5.
//!use common
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> Y: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let K = pu(0u);
    let bs = pu(2u);
    let per = K / bs;
    let u = group_index(wid, nwg) * 64u + li;
    if (u >= per * pu(1u)) { return; }
    let row = u / per;
    let k0 = (u % per) * bs;
    let i1 = row % pu(4u);
    let i2 = row / pu(4u);
    let mode = pu(3u);
    let out = row * K + k0;
    if (mode == 3u) {
        for (var k = 0u; k < bs; k++) { Y[out + k] = X[at(5u, k0 + k, i1, i2, 0u)]; }
        return;
    }
    if (mode == 2u) {
        for (var k = 0u; k < bs; k++) { Y[out + k] = half(X[at(5u, k0 + k, i1, i2, 0u)]); }
        return;
    }
    var amax = 0.0;
    var mx = 0.0;
    for (var k = 0u; k < bs; k++) {
        let x = X[at(5u, k0 + k, i1, i2, 0u)];
        if (abs(x) > amax) { amax = abs(x); mx = x; }
    }
    if (mode == 0u) {
        let d = half(amax / 127.0);
        var id = 0.0;
        if (amax != 0.0) { id = 127.0 / amax; }
        for (var k = 0u; k < bs; k++) {
            Y[out + k] = d * round(X[at(5u, k0 + k, i1, i2, 0u)] * id);
        }
        return;
    }
    if (amax == 0.0) {
        for (var k = 0u; k < bs; k++) { Y[out + k] = 0.0; }
        return;
    }
    let iscale = -127.0 / mx;
    let d = 1.0 / iscale;
    for (var k = 0u; k < bs; k++) {
        Y[out + k] = d * min(127.0, round(iscale * X[at(5u, k0 + k, i1, i2, 0u)]));
    }
}
