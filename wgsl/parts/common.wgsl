// Every kernel's parameter block (shapes, element offsets and strides,
// constants), written once when the graph is compiled, and helpers to read
// it. The backend declares each kernel's words by name (P_NAME, the first
// word of a field: gpu/webgpu/params.go), so kernels read pu(P_K) or
// at(P_IN, ...), never a word number. Locations are 5 words: offset, then
// strides of dims 0..3, in elements.
struct Params { v: array<vec4<u32>, 16> }
@group(0) @binding(0) var<uniform> P: Params;

fn pu(i: u32) -> u32 { return P.v[i >> 2u][i & 3u]; }
fn pf(i: u32) -> f32 { return bitcast<f32>(pu(i)); }

// pu_bound is pu(i) for the bound of a short loop. Mesa's lavapipe (the
// software Vulkan that tests run on) inlines uniform values that bound
// loops into the shader and compiles that variant again at each dispatch,
// unrolling what it can: the router's loops over 16 experts took 150 ms a
// dispatch there, against 0.2 ms with this. A value that also depends on
// the workgroup id cannot be inlined; the id never reaches 65535.
fn pu_bound(i: u32, wid: vec3<u32>) -> u32 { return select(pu(i), 0u, wid.z > 65535u); }

// The workgroup's index over a grid spread across x and y (a dimension
// holds at most 65535 workgroups).
fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 { return wid.x + wid.y * nwg.x; }

// coords splits element index e of a shape (4 words from word shape) into
// its (i0, i1, i2, i3).
fn coords(shape: u32, e: u32) -> vec4<u32> {
    let r1 = e / pu(shape);
    let r2 = r1 / pu(shape + 1u);
    return vec4<u32>(e % pu(shape), r1 % pu(shape + 1u), r2 % pu(shape + 2u), r2 / pu(shape + 2u));
}

// at is the element index of (i0, i1, i2, i3) at the location stored at
// params word base.
fn at(base: u32, i0: u32, i1: u32, i2: u32, i3: u32) -> u32 {
    return pu(base) + i0 * pu(base + 1u) + i1 * pu(base + 2u) + i2 * pu(base + 3u) + i3 * pu(base + 4u);
}

// half rounds to the nearest f16 value, as llama.cpp does where it meets
// f16 data.
fn half(x: f32) -> f32 { return unpack2x16float(f16_bits(x)).x; }

// pack_half2 is pack2x16float rounding as the CPU does: WGSL leaves
// pack2x16float's rounding to the implementation (NVIDIA's is not to
// nearest), and a cache row or activation one f16 step off is where
// backends part.
fn pack_half2(v: vec2<f32>) -> u32 { return f16_bits(v.x) | (f16_bits(v.y) << 16u); }

// f16_bits is x rounded to the nearest f16 (ties to even), as its 16 bits.
fn f16_bits(x: f32) -> u32 {
    let b = bitcast<u32>(x);
    let sign = (b >> 16u) & 0x8000u;
    let a = b & 0x7fffffffu;
    if (a > 0x7f800000u) { return sign | 0x7e00u; } // NaN
    if (a >= 0x477ff000u) { return sign | 0x7c00u; } // 65520 and up: infinity
    if (a >= 0x38800000u) {
        // A normal f16: drop 13 mantissa bits, rounding (a carry moves
        // into the exponent, as it should).
        let rest = a & 0x1fffu;
        var r = a >> 13u;
        if (rest > 0x1000u || (rest == 0x1000u && (r & 1u) != 0u)) { r += 1u; }
        return sign | (r - (112u << 10u));
    }
    if (a < 0x33000000u) { return sign; } // at most 2^-25: zero
    // A subnormal f16: multiples of 2^-24.
    let e = a >> 23u;
    let m = (a & 0x7fffffu) | 0x800000u;
    let s = 126u - e;
    var q = m >> s;
    let rest = m & ((1u << s) - 1u);
    let halfway = 1u << (s - 1u);
    if (rest > halfway || (rest == halfway && (q & 1u) != 0u)) { q += 1u; }
    return sign | q;
}
