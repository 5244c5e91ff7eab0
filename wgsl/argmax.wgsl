// The index of the largest value of each row (ties: the lowest index). One
// workgroup per row. Words: 0 row length, In at 1, Out at 6.
//!use common
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> O: array<u32>;

var<workgroup> bv: array<f32, 256>;
var<workgroup> bi: array<u32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let r = group_index(wid, nwg);
    let n = pu(0u);
    let b0 = at(1u, 0u, r, 0u, 0u);
    let s0 = at(1u, 1u, r, 0u, 0u) - b0;
    var v = -3.4e38;
    var vi = 0xffffffffu;
    // One workgroup reads a whole vocabulary: eight loads in flight per
    // thread rather than one, or the loop waits out each load's latency
    // (a 150k row took a quarter of a millisecond on an H100). A thread
    // still meets its elements in increasing order, so ties keep the
    // lowest index.
    var i = li;
    for (; i + 7u * 256u < n; i += 8u * 256u) {
        var x: array<f32, 8>;
        for (var k = 0u; k < 8u; k++) { x[k] = X[b0 + (i + k * 256u) * s0]; }
        for (var k = 0u; k < 8u; k++) {
            if (x[k] > v || vi == 0xffffffffu) { v = x[k]; vi = i + k * 256u; }
        }
    }
    for (; i < n; i += 256u) {
        let x = X[b0 + i * s0];
        if (x > v || vi == 0xffffffffu) { v = x; vi = i; }
    }
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
    if (li == 0u) { O[at(6u, r, 0u, 0u, 0u)] = bi[0]; }
}
