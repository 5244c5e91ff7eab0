// Writes a step's keys and values into cache rows pos+t, both in one
// dispatch (threads past the keys' take the values). F16 caches take two
// values per thread (one 32-bit word). Words: 0 tokens, 1 has values;
// keys: 2 row width, 3 cache row stride (elements), 4 F16 (rounded as
// the CPU rounds, pack_half2, on every GPU), source at 5;
// values: the same from word 10.
//!use common
//!use step
@group(0) @binding(2) var<storage, read_write> XK: array<f32>;
@group(0) @binding(3) var<storage, read_write> CK: array<u32>;
@group(0) @binding(4) var<storage, read_write> XV: array<f32>;
@group(0) @binding(5) var<storage, read_write> CV: array<u32>;

// The threads per token of the pair at word p: one per value, or per pair
// of values into an F16 cache.
fn per_token(p: u32) -> u32 { return select(pu(p), pu(p) / 2u, pu(p + 2u) != 0u); }

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    var i = group_index(wid, nwg) * 64u + li;
    let T = pu(0u);
    let nk = per_token(2u) * T;
    var p = 2u;
    if (i >= nk) {
        i -= nk;
        p = 10u;
        if (pu(1u) == 0u || i >= per_token(p) * T) { return; }
    }
    let per = per_token(p);
    let t = i / per;
    let row = (S.pos + t) * pu(p + 1u);
    let keys = p == 2u;
    if (pu(p + 2u) != 0u) {
        let d = 2u * (i % per);
        let a = at(p + 3u, d, t, 0u, 0u);
        let b = at(p + 3u, d + 1u, t, 0u, 0u);
        if (keys) {
            CK[(row + d) / 2u] = pack_half2(vec2<f32>(XK[a], XK[b]));
        } else {
            CV[(row + d) / 2u] = pack_half2(vec2<f32>(XV[a], XV[b]));
        }
    } else {
        let d = i % per;
        let a = at(p + 3u, d, t, 0u, 0u);
        if (keys) { CK[row + d] = bitcast<u32>(XK[a]); } else { CV[row + d] = bitcast<u32>(XV[a]); }
    }
}
