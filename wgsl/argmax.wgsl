// The index of the largest value of each row (ties: the lowest index). One
// workgroup per row. Words: argmaxParams.
//!use common
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> O: array<u32>;

var<workgroup> bv: array<f32, 256>;
var<workgroup> bi: array<u32, 256>;

// take keeps x at index i if it beats the best so far (or is the first).
fn take(v: ptr<function, f32>, vi: ptr<function, u32>, x: f32, i: u32) {
    if (x > *v || *vi == 0xffffffffu) { *v = x; *vi = i; }
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let r = group_index(wid, nwg);
    let n = pu(P_N);
    let b0 = at(P_IN, 0u, r, 0u, 0u);
    let s0 = at(P_IN, 1u, r, 0u, 0u) - b0;
    var v = -3.4e38;
    var vi = 0xffffffffu;
    // One workgroup reads a whole vocabulary: sixteen loads in flight per
    // thread rather than one, or the loop waits out each load's latency
    // (a vocabulary of 150k values, in one workgroup). A thread
    // still meets its elements in increasing order, so ties keep the
    // lowest index.
    var i = li;
    // Sixteen named loads, not an array: indexed private arrays can land in
    // local memory, and then each load waits for the one before it.
    for (; i + 15u * 256u < n; i += 16u * 256u) {
        let x0 = X[b0 + i * s0];
        let x1 = X[b0 + (i + 256u) * s0];
        let x2 = X[b0 + (i + 512u) * s0];
        let x3 = X[b0 + (i + 768u) * s0];
        let x4 = X[b0 + (i + 1024u) * s0];
        let x5 = X[b0 + (i + 1280u) * s0];
        let x6 = X[b0 + (i + 1536u) * s0];
        let x7 = X[b0 + (i + 1792u) * s0];
        let x8 = X[b0 + (i + 2048u) * s0];
        let x9 = X[b0 + (i + 2304u) * s0];
        let x10 = X[b0 + (i + 2560u) * s0];
        let x11 = X[b0 + (i + 2816u) * s0];
        let x12 = X[b0 + (i + 3072u) * s0];
        let x13 = X[b0 + (i + 3328u) * s0];
        let x14 = X[b0 + (i + 3584u) * s0];
        let x15 = X[b0 + (i + 3840u) * s0];
        take(&v, &vi, x0, i);
        take(&v, &vi, x1, i + 256u);
        take(&v, &vi, x2, i + 512u);
        take(&v, &vi, x3, i + 768u);
        take(&v, &vi, x4, i + 1024u);
        take(&v, &vi, x5, i + 1280u);
        take(&v, &vi, x6, i + 1536u);
        take(&v, &vi, x7, i + 1792u);
        take(&v, &vi, x8, i + 2048u);
        take(&v, &vi, x9, i + 2304u);
        take(&v, &vi, x10, i + 2560u);
        take(&v, &vi, x11, i + 2816u);
        take(&v, &vi, x12, i + 3072u);
        take(&v, &vi, x13, i + 3328u);
        take(&v, &vi, x14, i + 3584u);
        take(&v, &vi, x15, i + 3840u);
    }
    for (; i < n; i += 256u) { take(&v, &vi, X[b0 + i * s0], i); }
    bv[li] = v;
    bi[li] = vi;
    workgroupBarrier();
    for (var s = 128u; s > 0u; s >>= 1u) {
        if (li < s) {
            let ov = bv[li + s];
            let oi = bi[li + s];
            if (oi != 0xffffffffu && (bi[li] == 0xffffffffu || ov > bv[li] || (ov == bv[li] && oi < bi[li]))) {
                bv[li] = ov;
                bi[li] = oi;
            }
        }
        workgroupBarrier();
    }
    if (li == 0u) { O[at(P_OUT, r, 0u, 0u, 0u)] = bi[0]; }
}
