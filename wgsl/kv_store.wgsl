// Writes a step's keys (or values) into cache rows pos+t. F16 caches take
// two values per thread (one 32-bit word). Words: 0 row width, 1 tokens,
// 2 cache row stride (elements), 3 F16, source at 4.
//!use common
//!use step
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let i = group_index(wid, nwg) * 64u + li;
    let D = pu(0u);
    let half_cache = pu(3u) != 0u;
    var per = D;
    if (half_cache) { per = D / 2u; }
    if (i >= per * pu(1u)) { return; }
    let t = i / per;
    let row = (S.pos + t) * pu(2u);
    if (half_cache) {
        let d = 2u * (i % per);
        let v = vec2<f32>(X[at(4u, d, t, 0u, 0u)], X[at(4u, d + 1u, t, 0u, 0u)]);
        C[(row + d) / 2u] = pack2x16float(v);
    } else {
        let d = i % per;
        C[row + d] = bitcast<u32>(X[at(4u, d, t, 0u, 0u)]);
    }
}
