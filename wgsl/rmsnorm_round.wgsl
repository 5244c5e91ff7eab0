// RMSNorm of each row as rmsnorm.wgsl, also written rounded for the
// products that read it (quantize_act's modes, packed {n, rows}), which
// saves that dispatch. A workgroup of 256 threads normalises 256 values
// of a row after summing the whole row's squares itself: rows are short,
// and re-reading one from cache costs less than a dispatch. Words:
// rmsNormParams and the rounding's block size and mode.
//!use common
//!use rms_scale
//!use round_block
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> Wt: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> Y: array<u32>;

const NT = 256u;

@compute @workgroup_size(NT)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let n = pu(P_N);
    let chunks = (n + 255u) / 256u;
    let g = group_index(wid, nwg);
    let r = g / chunks;
    let i1 = r % pu(P_D1);
    let i2 = (r / pu(P_D1)) % pu(P_D2);
    let i3 = r / (pu(P_D1) * pu(P_D2));
    // This thread's value and weight, loaded before the row's sum so
    // their latency passes during it.
    let i = (g % chunks) * 256u + li;
    let live = i < n;
    let x = X[at(P_IN, min(i, n - 1u), i1, i2, i3)];
    var w = 1.0;
    if (pu(P_HAS_WEIGHT) != 0u) { w = Wt[at(P_WEIGHT, min(i, n - 1u), 0u, 0u, 0u)]; }
    let scale = rms_scale(li, i1, i2, i3);
    var y = 0.0;
    if (live) {
        y = x * scale;
        if (pu(P_HAS_WEIGHT) != 0u) { y *= w; }
        O[at(P_OUT, i, i1, i2, i3)] = y;
    }
    let st = round_store(y, li, i, n, pu(P_BLOCK), pu(P_MODE));
    if (live && st.write) { Y[r * n + st.at] = st.bits; }
}
