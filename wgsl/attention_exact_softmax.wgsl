// Exact attention, second pass: a row of scores becomes weights as
// ggml_vec_soft_max_f32 makes them: the largest subtracted, ggml's exp,
// sums of 16-value chunks added in float64, one float32 reciprocal of the
// double sum, and weights rounded to f16 against an F16 cache. A
// workgroup a query head and token: the largest value and the exps
// depend on no order, and a thread owns every 64th chunk. The chunks'
// float64 sum is serial on the CPU, but only its float32 reciprocal is
// kept: the threads add in a tree, and where the reciprocal is the same
// at both ends of f64_spread around the tree's sum, it is the CPU's
// (1/x is monotone); otherwise one thread adds the chunks in the CPU's
// order.
//!use attention_exact
//!use f64_tree
//!use exact_math
@group(0) @binding(2) var<storage, read_write> SC: array<f32>;

const NT = 64u;
var<workgroup> top: array<f32, NT>;
var<workgroup> inverse: f32;
var<workgroup> undecided: u32;

// chunk_sum is chunk c's exps added as ggml adds 16 lanes (zeros past n).
fn chunk_sum(row: u32, c: u32, n: u32) -> f32 {
    let i = 16u * c;
    return sum_lanes16v(sc4(row, i, n), sc4(row, i + 4u, n), sc4(row, i + 8u, n), sc4(row, i + 12u, n));
}

// sc4 is values i .. i+3 of the row, zeros from n on.
fn sc4(row: u32, i: u32, n: u32) -> vec4<f32> {
    let k = vec4<u32>(i, i + 1u, i + 2u, i + 3u);
    let at = row + min(k, vec4<u32>(n - 1u));
    return select(vec4<f32>(), vec4<f32>(SC[at.x], SC[at.y], SC[at.z], SC[at.w]), k < vec4<u32>(n));
}

@compute @workgroup_size(NT)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let x = head_token(group_index(wid, nwg), 1u);
    if (!x.ok) { return; }
    let n = positions(x.t);
    let chunks = (n + 15u) / 16u;
    let ninf = 0xff800000u; // a let: Tint rejects an infinite constant
    var m = bitcast<f32>(ninf);
    for (var j = li; j < n; j += NT) { m = max(m, SC[x.row + j]); }
    top[li] = m;
    workgroupBarrier();
    for (var w = NT / 2u; w > 0u; w >>= 1u) {
        if (li < w) { top[li] = max(top[li], top[li + w]); }
        workgroupBarrier();
    }
    m = top[0];
    var s = f64_from(0.0);
    for (var c = li; c < chunks; c += NT) {
        for (var j = 16u * c; j < min(16u * c + 16u, n); j++) { SC[x.row + j] = exp_ggml(SC[x.row + j] - m); }
        s = f64_add(s, f64_from(chunk_sum(x.row, c, n)));
    }
    let total = f64_tree_sum(li, s);
    if (li == 0u) {
        // Adds a chunk passes through: the CPU's chunks - 1, the tree's
        // ceil(chunks / NT) - 1 + log2(NT).
        let spread = f64_spread(total, chunks + (chunks + NT - 1u) / NT + 6u);
        let low = f64_recip_f32(f64_add(total, spread));
        inverse = f64_recip_f32(f64_add(total, F64(spread.m, spread.e, true)));
        undecided = select(0u, 1u, low != inverse);
    }
    storageBarrier();
    if (workgroupUniformLoad(&undecided) != 0u) {
        if (li == 0u) {
            var sum = f64_from(0.0);
            for (var c = 0u; c < chunks; c++) { sum = f64_add(sum, f64_from(chunk_sum(x.row, c, n))); }
            inverse = f64_recip_f32(sum);
        }
    }
    let inv = workgroupUniformLoad(&inverse);
    for (var c = li; c < chunks; c += NT) {
        for (var j = 16u * c; j < min(16u * c + 16u, n); j++) {
            var p = SC[x.row + j] * inv;
            if (pu(23u) != 0u) { p = half(p); }
            SC[x.row + j] = p;
        }
    }
}
