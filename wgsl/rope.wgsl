// Rotary position embedding of the first dims elements of each head, with
// ggml's angles: float32 products advanced by theta_scale per pair, divided
// by frequency factors, YaRN's ramp, magnitude scale. One thread per
// element; the first of each rotated pair does the pair, the rest of the
// head is copied. Words: 0 head dim, 1 heads, 2 tokens, 3 dims, 4 NeoX,
// 5 theta_scale, 6 freq_scale, 7 ext_factor, 8..9 YaRN range, 10 mscale,
// 11 has factors, In at 12, Out at 17.
//!use common
//!use step
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> FF: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

// Reduces an angle to [-π, π] in two steps (2π split in a head and a
// tail), so large positions keep their precision on any GPU's cos/sin.
fn reduce(x: f32) -> f32 {
    let k = round(x * 0.15915494309189535);
    return (x - k * 6.28125) - k * 0.0019353071795864769;
}

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
    var a: u32;
    var b: u32;
    if (pu(4u) != 0u) {
        if (e >= half_dims) { return; }
        p = e; a = e; b = e + half_dims;
    } else {
        if ((e & 1u) != 0u) { return; }
        p = e / 2u; a = e; b = e + 1u;
    }
    var theta = f32(S.pos + t);
    for (var k = 0u; k < p; k++) { theta *= pf(5u); }
    var extrap = theta;
    if (pu(11u) != 0u) { extrap = theta / FF[p]; }
    let interp = pf(6u) * extrap;
    var th = interp;
    let ext = pf(7u);
    if (ext != 0.0) {
        let y = (f32(p) - pf(8u)) / max(0.001, pf(9u) - pf(8u));
        let mix = (1.0 - min(1.0, max(0.0, y))) * ext;
        th = interp * (1.0 - mix) + extrap * mix;
    }
    let r = reduce(th);
    let c = cos(r) * pf(10u);
    let s = sin(r) * pf(10u);
    let x0 = X[at(12u, a, h, t, 0u)];
    let x1 = X[at(12u, b, h, t, 0u)];
    O[at(17u, a, h, t, 0u)] = x0 * c - x1 * s;
    O[at(17u, b, h, t, 0u)] = x0 * s + x1 * c;
}
