// What the attention kernels share: the query head and a chunk of weights
// in workgroup memory, scores against cached keys, and workgroup max and
// sum over 64 threads. Call the reductions from uniform control flow.
const MAXD = 640u;
const CHUNK = 1024u;
const PER = 10u; // MAXD / 64 output values per thread
var<workgroup> q: array<f32, 640>;
var<workgroup> w: array<f32, 1024>;
var<workgroup> red: array<f32, 64>;

fn score(j: u32, kbase: u32) -> f32 {
    var s = 0.0;
    let row = j * pu(6u) + kbase;
    for (var d = 0u; d < pu(0u); d++) { s += q[d] * kload(row + d); }
    return s * pf(5u);
}

fn reduce_max(li: u32, x: f32) -> f32 {
    red[li] = x;
    workgroupBarrier();
    for (var s = 32u; s > 0u; s >>= 1u) {
        if (li < s) { red[li] = max(red[li], red[li + s]); }
        workgroupBarrier();
    }
    let r = red[0];
    workgroupBarrier();
    return r;
}

fn reduce_sum(li: u32, x: f32) -> f32 {
    red[li] = x;
    workgroupBarrier();
    for (var s = 32u; s > 0u; s >>= 1u) {
        if (li < s) { red[li] += red[li + s]; }
        workgroupBarrier();
    }
    let r = red[0];
    workgroupBarrier();
    return r;
}
