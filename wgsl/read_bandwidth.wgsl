// Streams a buffer through the device as a bandwidth yardstick: every
// thread reads 16-byte words, a grid's stride apart so that neighbouring
// threads read neighbouring words, and folds them into one word a
// workgroup writes (which keeps the reads from being optimised away).
// Decode reads its weights this way at best, so its bytes a second over
// this kernel's is how close it comes to the memory. Words: readParams.
//!use common
@group(0) @binding(2) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> O: array<u32>;

const WG = 256u;
var<workgroup> folded: array<u32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let stride = nwg.x * nwg.y * WG;
    var acc = vec4<u32>(0u);
    for (var i = g * WG + li; i < pu(P_WORDS); i += stride) { acc ^= X[i]; }
    folded[li] = acc.x ^ acc.y ^ acc.z ^ acc.w;
    workgroupBarrier();
    if (li == 0u) {
        var f = 0u;
        for (var j = 0u; j < WG; j++) { f ^= folded[j]; }
        O[g] = f;
    }
}
