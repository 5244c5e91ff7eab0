// The RMSNorm factor of a row, summed by the NT threads of a workgroup
// (NT a power of two the kernel declares). Call from uniform control flow.
var<workgroup> red: array<f32, NT>;

// rms_scale is 1/sqrt(mean(In²) + eps) of row (i1, i2, i3) of In (X):
// words P_N (the row length), P_EPS and P_IN.
fn rms_scale(li: u32, i1: u32, i2: u32, i3: u32) -> f32 {
    let n = pu(P_N);
    var s = 0.0;
    for (var i = li; i < n; i += NT) {
        let x = X[at(P_IN, i, i1, i2, i3)];
        s += x * x;
    }
    red[li] = s;
    workgroupBarrier();
    for (var w = NT / 2u; w > 0u; w >>= 1u) {
        if (li < w) { red[li] += red[li + w]; }
        workgroupBarrier();
    }
    return 1.0 / sqrt(red[0] / f32(n) + pf(P_EPS));
}
