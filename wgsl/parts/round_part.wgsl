// The packed roundings (quantize_act's modes 4: Q8_0 and 5: Q8_K;
// round_block.wgsl says the layout) of a prompt's rows, eight values a
// thread: four threads take a 32-value run, so a subgroup's loads and
// stores fall on a few lines. Each thread finds its part's largest
// magnitude alone, and the run's four parts (in mode 5 the 32 of a
// 256-value super-block) meet once in workgroup memory, in order, as a
// scan of the run would find it: the CPU's scales, integers and sums.
// Kernels of 256 threads (quantize_packed, rmsnorm_packed).
//!use round_q8

// Each part's largest magnitude and the first value of that magnitude
// (mode 5's scale takes its sign), then its integers' sum.
var<workgroup> part_max: array<f32, 256>;
var<workgroup> part_first: array<f32, 256>;
var<workgroup> part_sum: array<i32, 256>;

// Part is one thread's eight values.
struct Part { v: array<f32, 8> }

// part_extreme is the largest magnitude of x's values and the first value
// of it; magnitudes compare as the CPU's fabsf values do.
fn part_extreme(x: Part) -> vec2<f32> {
    var m = 0.0;
    var first = 0.0;
    for (var j = 0u; j < 8u; j++) {
        let a = abs(x.v[j]);
        if (a > m) {
            m = a;
            first = x.v[j];
        }
    }
    return vec2<f32>(m, first);
}

// Packed is a part's two words of integers and its block's scales.
struct Packed { w: vec2<u32>, s: vec3<f32> }

// pack_part rounds thread li's part x (extreme e: part_extreme's) in mode
// 4 or 5 by its block's scales, and leaves its integers' sum in part_sum.
// Call it from uniform control flow (two barriers).
fn pack_part(li: u32, x: Part, e: vec2<f32>, mode: u32) -> Packed {
    part_max[li] = e.x;
    part_first[li] = e.y;
    workgroupBarrier();
    let k5 = mode == 5u;
    let b0 = select(li & ~3u, li & ~31u, k5);
    var bm = 0.0;
    var bv = 0.0;
    for (var j = 0u; j < select(4u, 32u, k5); j++) {
        if (part_max[b0 + j] > bm) {
            bm = part_max[b0 + j];
            bv = part_first[b0 + j];
        }
    }
    let s = q8_scales(bm, bv, select(0u, 1u, k5));
    var w = vec2<u32>(0u);
    var sum = 0;
    for (var h = 0u; h < 2u; h++) {
        var q: vec4<i32>;
        if (k5) {
            q = vec4<i32>(q8k_int(x.v[4u * h], s), q8k_int(x.v[4u * h + 1u], s), q8k_int(x.v[4u * h + 2u], s), q8k_int(x.v[4u * h + 3u], s));
        } else {
            q = vec4<i32>(q8_int(x.v[4u * h], s), q8_int(x.v[4u * h + 1u], s), q8_int(x.v[4u * h + 2u], s), q8_int(x.v[4u * h + 3u], s));
        }
        sum += q.x + q.y + q.z + q.w;
        w[h] = pack_q8(q.x, q.y, q.z, q.w);
    }
    part_sum[li] = sum;
    workgroupBarrier();
    return Packed(w, s);
}

// Stores are the words a part puts: bits[i] at word at[i], for i < n.
struct Stores { at: vec4<u32>, bits: vec4<u32>, n: u32 }

// part_stores are the words of thread li's part pk, values k0 .. k0+7 of
// a row of K values whose packed copy starts at word o: its two words of
// integers; in mode 4 the run's first part adds the block's scale and
// sum, in mode 5 every other part the sum of its 16 values and the
// super-block's first part its scale. Call it after pack_part.
fn part_stores(li: u32, k0: u32, o: u32, K: u32, mode: u32, pk: Packed) -> Stores {
    var st = Stores(vec4<u32>(o + k0 / 4u, o + k0 / 4u + 1u, 0u, 0u), vec4<u32>(pk.w, 0u, 0u), 2u);
    let p = li % 4u;
    if (mode != 5u) {
        if (p == 0u) {
            let head = o + K / 4u + 2u * (k0 / 32u);
            let t = part_sum[li] + part_sum[li + 1u] + part_sum[li + 2u] + part_sum[li + 3u];
            st.at = vec4<u32>(st.at.xy, head, head + 1u);
            st.bits = vec4<u32>(st.bits.xy, bitcast<u32>(pk.s.x), bitcast<u32>(f32(t)));
            st.n = 4u;
        }
        return st;
    }
    let head = o + K / 4u + 20u * (k0 / 256u);
    if (p % 2u == 0u) {
        st.at[st.n] = head + 4u + (k0 % 256u) / 16u;
        st.bits[st.n] = bitcast<u32>(part_sum[li] + part_sum[li + 1u]);
        st.n += 1u;
    }
    if (k0 % 256u == 0u) {
        st.at[st.n] = head;
        st.bits[st.n] = bitcast<u32>(pk.s.x);
        st.n += 1u;
    }
    return st;
}
