// Rotary position embedding of the first dims elements of each head, with
// ggml's angles (rope_angle); the rest of each head is copied. A
// workgroup takes HC heads of one token: their pairs share the token's
// angles, which it computes once into workgroup memory (a pair's angle
// is a chain of as many multiplications as its index, ggml's order),
// rather than once a head. Words: ropeKernelParams.
//!use common
//!use step
//!use rope_angle
@group(0) @binding(2) var<storage, read> X: array<f32>;
@group(0) @binding(3) var<storage, read> FF: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

const WG = 64u;
// Heads a workgroup, and the pairs' (cos, sin) it holds at a time: 32,
// so an 8B's 64 pairs take two turns and the op suite's 40 run the
// turns' loop.
const HC = 4u;
const PT = 32u;
var<workgroup> tab: array<vec2<f32>, PT>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let hd = pu(P_HEAD_DIM);
    let H = pu(P_H);
    let groups = (H + HC - 1u) / HC;
    let g = group_index(wid, nwg);
    if (g >= groups * pu(P_T)) { return; }
    let t = g / groups;
    let h0 = (g % groups) * HC;
    let hn = min(HC, H - h0);
    let dims = pu(P_ROPE_DIMS);
    let half_dims = dims / 2u;
    let pos = tok_pos(t);
    for (var p0 = 0u; p0 < half_dims; p0 += PT) {
        let pn = min(PT, half_dims - p0);
        for (var p = li; p < pn; p += WG) { tab[p] = rope_cs(p0 + p, pos); }
        workgroupBarrier();
        for (var i = li; i < hn * pn; i += WG) {
            let h = h0 + i / pn;
            let ab = rope_pair(p0 + i % pn);
            let cs = tab[i % pn];
            let x0 = X[at(P_IN, ab.x, h, t, 0u)];
            let x1 = X[at(P_IN, ab.y, h, t, 0u)];
            O[at(P_OUT, ab.x, h, t, 0u)] = x0 * cs.x - x1 * cs.y;
            O[at(P_OUT, ab.y, h, t, 0u)] = x0 * cs.y + x1 * cs.x;
        }
        // The chunk's angles are read before the next chunk's replace them.
        workgroupBarrier();
    }
    let rest = hd - dims;
    for (var i = li; i < hn * rest; i += WG) {
        let h = h0 + i / rest;
        let e = dims + i % rest;
        O[at(P_OUT, e, h, t, 0u)] = X[at(P_IN, e, h, t, 0u)];
    }
}
