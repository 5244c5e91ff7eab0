// Copies In to Out in logical element order, converting between F32 and
// F16 and between layouts. A thread moves two consecutive output elements
// so that an F16 output word is written by one thread only (F16 outputs
// must be packed). Words: copyParams.
//!use common
@group(0) @binding(2) var<storage, read> X: array<u32>;
@group(0) @binding(3) var<storage, read_write> Y: array<u32>;

fn index(shape: u32, loc: u32, e: u32) -> u32 {
    let c = coords(shape, e);
    return at(loc, c.x, c.y, c.z, c.w);
}

fn load(e: u32) -> f32 {
    let i = index(P_IN_SHAPE, P_IN, e);
    if (pu(P_IN_HALF) != 0u) {
        let w = X[i >> 1u];
        return unpack2x16float(select(w & 0xffffu, w >> 16u, (i & 1u) == 1u)).x;
    }
    return bitcast<f32>(X[i]);
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let e = 2u * (group_index(wid, nwg) * 64u + li);
    let n = pu(P_N);
    if (e >= n) { return; }
    let a = load(e);
    if (pu(P_OUT_HALF) != 0u) {
        let i = index(P_OUT_SHAPE, P_OUT, e);
        if (e + 1u < n) {
            Y[i >> 1u] = pack_half2(vec2<f32>(a, load(e + 1u)));
        } else {
            Y[i >> 1u] = (Y[i >> 1u] & 0xffff0000u) | f16_bits(a);
        }
        return;
    }
    Y[index(P_OUT_SHAPE, P_OUT, e)] = bitcast<u32>(a);
    if (e + 1u < n) { Y[index(P_OUT_SHAPE, P_OUT, e + 1u)] = bitcast<u32>(load(e + 1u)); }
}
