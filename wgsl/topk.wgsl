// The K largest values of each row and their indices, largest first (ties:
// lower index first): K passes of a workgroup-wide search for the best
// element ranked after the previous pick. Words: 0 row length, 1 K,
// In at 2, IDs at 7, Vals at 12.
//!use common
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(4) var<storage, read_write> Vals: array<f32>;

var<workgroup> bv: array<f32, 256>;
var<workgroup> bi: array<u32, 256>;

fn better(v: f32, i: u32, w: f32, j: u32) -> bool {
    return j == 0xffffffffu || (i != 0xffffffffu && (v > w || (v == w && i < j)));
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let r = group_index(wid, nwg);
    var pv = 3.4e38;
    var pi = 0xffffffffu;
    for (var k = 0u; k < pu(1u); k++) {
        var v = -3.4e38;
        var vi = 0xffffffffu;
        for (var i = li; i < pu(0u); i += 256u) {
            let x = X[at(2u, i, r, 0u, 0u)];
            let after = x < pv || (x == pv && (pi == 0xffffffffu || i > pi));
            if (after && better(x, i, v, vi)) { v = x; vi = i; }
        }
        bv[li] = v;
        bi[li] = vi;
        workgroupBarrier();
        for (var s = 128u; s > 0u; s >>= 1u) {
            if (li < s && better(bv[li + s], bi[li + s], bv[li], bi[li])) {
                bv[li] = bv[li + s];
                bi[li] = bi[li + s];
            }
            workgroupBarrier();
        }
        pv = bv[0];
        pi = bi[0];
        if (li == 0u) {
            IDs[at(7u, k, r, 0u, 0u)] = pi;
            Vals[at(12u, k, r, 0u, 0u)] = pv;
        }
        workgroupBarrier();
    }
}
