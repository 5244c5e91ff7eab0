// The RMSNorm factor of a row, summed by the NT threads of a workgroup
// (NT a power of two the kernel declares). Call from uniform control flow.
var<workgroup> red: array<f32, NT>;

// rms_scale is 1/sqrt(mean(In²) + eps) of row (i1, i2, i3) of In (X):
// words P_N (the row length), P_EPS and P_IN.
fn rms_scale(li: u32, i1: u32, i2: u32, i3: u32) -> f32 {
    let n = pu(P_N);
    var s = 0.0;
    var i = li;
    // Four values are loaded before their squares are added (in the
    // loop's order): a loop of one load waits out its latency once a value,
    // eight to thirty-two times on rows of 2048 to 8192.
    for (; i + 3u * NT < n; i += 4u * NT) {
        let x0 = X[at(P_IN, i, i1, i2, i3)];
        let x1 = X[at(P_IN, i + NT, i1, i2, i3)];
        let x2 = X[at(P_IN, i + 2u * NT, i1, i2, i3)];
        let x3 = X[at(P_IN, i + 3u * NT, i1, i2, i3)];
        s += x0 * x0;
        s += x1 * x1;
        s += x2 * x2;
        s += x3 * x3;
    }
    for (; i < n; i += NT) {
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
