// Rotary position embedding of the first dims elements of each head, with
// ggml's angles (rope_angle). One thread per element; the first of each
// rotated pair does the pair, the rest of the head is copied. Words:
// ropeKernelParams.
//!use common
//!use step
//!use rope_angle
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> FF: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let i = group_index(wid, nwg) * 64u + li;
    let hd = pu(P_HEAD_DIM);
    let H = pu(P_H);
    if (i >= hd * H * pu(P_T)) { return; }
    let e = i % hd;
    let h = (i / hd) % H;
    let t = i / (hd * H);
    let dims = pu(P_ROPE_DIMS);
    if (e >= dims) {
        O[at(P_OUT, e, h, t, 0u)] = X[at(P_IN, e, h, t, 0u)];
        return;
    }
    let half_dims = dims / 2u;
    var p: u32;
    if (pu(P_ROPE_NEOX) != 0u) {
        if (e >= half_dims) { return; }
        p = e;
    } else {
        if ((e & 1u) != 0u) { return; }
        p = e / 2u;
    }
    let ab = rope_pair(p);
    let cs = rope_cs(p, tok_pos(t));
    let x0 = X[at(P_IN, ab.x, h, t, 0u)];
    let x1 = X[at(P_IN, ab.y, h, t, 0u)];
    O[at(P_OUT, ab.x, h, t, 0u)] = x0 * cs.x - x1 * cs.y;
    O[at(P_OUT, ab.y, h, t, 0u)] = x0 * cs.y + x1 * cs.x;
}
