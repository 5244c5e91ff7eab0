// Writes a step's keys and values into their cache rows (pos+t, or
// where their places say), both in one
// dispatch (threads past the keys' take the values). F16 caches take two
// values per thread (one 32-bit word), rounded as the CPU rounds
// (pack_half2) on every GPU. Words: kvStoreParams.
//!use common
//!use step
@group(0) @binding(2) var<storage, read> XK: array<f32>;
@group(0) @binding(3) var<storage, read_write> CK: array<u32>;
@group(0) @binding(4) var<storage, read> XV: array<f32>;
@group(0) @binding(5) var<storage, read_write> CV: array<u32>;

// The threads per token of the keys or the values: one per value, or per
// pair of values into an F16 cache.
fn per_token(keys: bool) -> u32 {
    let width = pu(select(P_V_WIDTH, P_K_WIDTH, keys));
    return select(width, width / 2u, pu(select(P_V_HALF, P_K_HALF, keys)) != 0u);
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    var i = group_index(wid, nwg) * 64u + li;
    let T = pu(P_TOKENS);
    let nk = per_token(true) * T;
    let keys = i < nk;
    if (!keys) {
        i -= nk;
        if (pu(P_HAS_V) == 0u || i >= per_token(false) * T) { return; }
    }
    let per = per_token(keys);
    let t = i / per;
    let row = (tok_base(t) + tok_pos(t)) * pu(select(P_V_ROW, P_K_ROW, keys));
    let src = select(P_V_SRC, P_K_SRC, keys);
    if (pu(select(P_V_HALF, P_K_HALF, keys)) != 0u) {
        let d = 2u * (i % per);
        let a = at(src, d, t, 0u, 0u);
        let b = at(src, d + 1u, t, 0u, 0u);
        if (keys) {
            CK[(row + d) / 2u] = pack_half2(vec2<f32>(XK[a], XK[b]));
        } else {
            CV[(row + d) / 2u] = pack_half2(vec2<f32>(XV[a], XV[b]));
        }
    } else {
        let d = i % per;
        let a = at(src, d, t, 0u, 0u);
        if (keys) { CK[row + d] = bitcast<u32>(XK[a]); } else { CV[row + d] = bitcast<u32>(XV[a]); }
    }
}
