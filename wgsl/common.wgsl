// Every kernel's parameter block (shapes, element offsets and strides,
// constants), written once when the graph is compiled, and helpers to read
// it. Locations are 5 words: offset, then strides of dims 0..3, in
// elements.
struct Params { v: array<vec4<u32>, 16> }
@group(0) @binding(0) var<uniform> P: Params;

fn pu(i: u32) -> u32 { return P.v[i >> 2u][i & 3u]; }
fn pf(i: u32) -> f32 { return bitcast<f32>(pu(i)); }

// The workgroup's index over a grid spread across x and y (a dimension
// holds at most 65535 workgroups).
fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.x + wid.y * nwg.x; }

// at is the element index of (i0, i1, i2, i3) at the location stored at
// params word base.
fn at(base: u32, i0: u32, i1: u32, i2: u32, i3: u32) -> u32 {
    return pu(base) + i0 * pu(base + 1u) + i1 * pu(base + 2u) + i2 * pu(base + 3u) + i3 * pu(base + 4u);
}

// half rounds to the nearest f16 value, as llama.cpp does where it meets
// f16 data.
fn half(x: f32) -> f32 { return unpack2x16float(pack2x16float(vec2<f32>(x, 0.0))).x; }
