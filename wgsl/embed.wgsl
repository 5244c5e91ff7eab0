// Out[:, t] = the row Tokens[t] of a table in its file layout. One
// workgroup per token. Words: embedParams. A table too large for one
// binding is split over dispatches: this one has rows R0 .. R1
// (exclusive) from byte Base and writes only their tokens; an
// out-of-range token gives a row of zeros, written by the Last dispatch.
//!use common
//!decode
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> Tok: array<u32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let t = group_index(wid, nwg);
    if (t >= pu(P_T)) { return; }
    let tok = Tok[at(P_TOKENS, t, 0u, 0u, 0u)];
    let mine = tok >= pu(P_R0) && tok < pu(P_R1);
    if (!mine && (tok < pu(P_ROWS) || pu(P_LAST) == 0u)) { return; }
    let D = pu(P_D);
    let row = pu(P_BASE) + (tok - pu(P_R0)) * pu(P_ROW_BYTES);
    // Four values a thread are loaded before any is stored: a loop of
    // one waits out a load's latency per value, and a step has one such
    // workgroup a token to hide it behind.
    var i = li;
    for (; i + 768u < D; i += 1024u) {
        var v = vec4<f32>(0.0);
        if (mine) { v = vec4<f32>(dq(row, i), dq(row, i + 256u), dq(row, i + 512u), dq(row, i + 768u)); }
        O[at(P_OUT, i, t, 0u, 0u)] = v.x;
        O[at(P_OUT, i + 256u, t, 0u, 0u)] = v.y;
        O[at(P_OUT, i + 512u, t, 0u, 0u)] = v.z;
        O[at(P_OUT, i + 768u, t, 0u, 0u)] = v.w;
    }
    for (; i < D; i += 256u) {
        var v = 0.0;
        if (mine) { v = dq(row, i); }
        O[at(P_OUT, i, t, 0u, 0u)] = v;
    }
}
