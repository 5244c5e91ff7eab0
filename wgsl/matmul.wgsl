// Out[n, b, t] = Σ_k W[k, n, b] · In[k, b, t] for weights in their file
// layout (dot_block takes one block of a row against packed activations).
// One workgroup per output; its threads take the row's blocks in turn.
// Words: 0 K, 1 N, 2 B, 3 T, 4 row bytes, In at 5, Out at 10.
//!use common
//!decode
@group(0) @binding(2) var<storage, read_write> W: array<u32>;
@group(0) @binding(3) var<storage, read_write> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

var<workgroup> red: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let N = pu(1u);
    let B = pu(2u);
    let n = g % N;
    let b = (g / N) % B;
    let t = g / (N * B);
    if (t >= pu(3u)) { return; }
    let rb = (b * N + n) * pu(4u);
    var s = 0.0;
    let xo = at(5u, 0u, b, t, 0u);
    for (var blk = li; blk < pu(0u) / BLOCK; blk += 64u) {
        s += dot_block(rb, blk, xo + blk * BLOCK);
    }
    red[li] = s;
    workgroupBarrier();
    for (var w = 32u; w > 0u; w >>= 1u) {
        if (li < w) { red[li] += red[li + w]; }
        workgroupBarrier();
    }
    if (li == 0u) { O[at(10u, n, b, t, 0u)] = red[0]; }
}
