// Out[:, t] = the row Tokens[t] of a table in its file layout. One
// workgroup per token. Words: 0 D, 1 T, 2 row bytes, 3 rows, Tokens at 4,
// Out at 9. A table too large for one binding is split over dispatches:
// this one has rows 15 .. 16 (exclusive) from byte 14 and writes only
// their tokens; an out-of-range token gives a row of zeros, written by the
// dispatch whose word 17 is set.
//!use common
//!decode
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read_write> Tok: array<u32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let t = group_index(wid, nwg);
    if (t >= pu(1u)) { return; }
    let tok = Tok[at(4u, t, 0u, 0u, 0u)];
    let mine = tok >= pu(15u) && tok < pu(16u);
    if (!mine && (tok < pu(3u) || pu(17u) == 0u)) { return; }
    for (var i = li; i < pu(0u); i += 64u) {
        var v = 0.0;
        if (mine) { v = dq(pu(14u) + (tok - pu(15u)) * pu(2u), i); }
        O[at(9u, i, t, 0u, 0u)] = v;
    }
}
