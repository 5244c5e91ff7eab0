// Exact attention, second pass: a row of scores becomes weights as
// ggml_vec_soft_max_f32 makes them: the largest subtracted, ggml's exp,
// sums of 16-value chunks added in float64, one float32 reciprocal of the
// double sum, and weights rounded to f16 against an F16 cache. One thread
// a query head and token.
//!use attention_exact
//!use f64_exact
//!use exact_math
@group(0) @binding(2) var<storage, read_write> SC: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let x = head_token(group_index(wid, nwg) * 64u + li, 1u);
    if (!x.ok) { return; }
    let n = positions(x.t);
    let ninf = 0xff800000u; // a let: Tint rejects an infinite constant
    var m = bitcast<f32>(ninf);
    for (var j = 0u; j < n; j++) { m = max(m, SC[x.row + j]); }
    var sum = f64_from(0.0);
    for (var j0 = 0u; j0 < n; j0 += 16u) {
        var chunk = array<f32, 16>();
        for (var l = 0u; l < 16u && j0 + l < n; l++) {
            let e = exp_ggml(SC[x.row + j0 + l] - m);
            SC[x.row + j0 + l] = e;
            chunk[l] = e;
        }
        sum = f64_add(sum, f64_from(sum_lanes16(chunk)));
    }
    let inv = f64_recip_f32(sum);
    for (var j = 0u; j < n; j++) {
        var p = SC[x.row + j] * inv;
        if (pu(23u) != 0u) { p = half(p); }
        SC[x.row + j] = p;
    }
}
