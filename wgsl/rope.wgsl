// Rotary position embedding of the first dims elements of each head, with
// ggml's angles (rope_angle). One thread per element; the first of each
// rotated pair does the pair, the rest of the head is copied. Words: 0 head dim, 1 heads, 2 tokens, 3 dims, 4 NeoX,
// 5 theta_scale, 6 freq_scale, 7 ext_factor, 8..9 YaRN range, 10 mscale,
// 11 has factors, In at 12, Out at 17.
//!use common
//!use step
//!use rope_angle
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> FF: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let i = group_index(wid, nwg) * 64u + li;
    let hd = pu(0u);
    let H = pu(1u);
    if (i >= hd * H * pu(2u)) { return; }
    let e = i % hd;
    let h = (i / hd) % H;
    let t = i / (hd * H);
    let dims = pu(3u);
    if (e >= dims) {
        O[at(17u, e, h, t, 0u)] = X[at(12u, e, h, t, 0u)];
        return;
    }
    let half_dims = dims / 2u;
    var p: u32;
    if (pu(4u) != 0u) {
        if (e >= half_dims) { return; }
        p = e;
    } else {
        if ((e & 1u) != 0u) { return; }
        p = e / 2u;
    }
    let ab = rope_pair(3u, p);
    let cs = rope_cs(3u, p, S.pos + t);
    let x0 = X[at(12u, ab.x, h, t, 0u)];
    let x1 = X[at(12u, ab.y, h, t, 0u)];
    O[at(17u, ab.x, h, t, 0u)] = x0 * cs.x - x1 * cs.y;
    O[at(17u, ab.y, h, t, 0u)] = x0 * cs.y + x1 * cs.x;
}
