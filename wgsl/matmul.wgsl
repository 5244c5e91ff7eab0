// Out[n, b, t] = Σ_k W[k, n, b] · In[k, b, t] for weights in their file
// layout (dot_block takes one block of a row against packed activations).
// A workgroup computes ROWS consecutive rows of one (b, t), 32 threads per
// row taking the row's blocks in turn, so neighbouring threads read
// neighbouring blocks. Words: 0 K, 1 N, 2 B, 3 T, 4 row bytes, In at 5,
// Out at 10.
//!use common
//!decode
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;

const ROWS = 8u;
const LANES = 32u;
var<workgroup> red: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let N = pu(1u);
    let B = pu(2u);
    let groups = (N + ROWS - 1u) / ROWS;
    let lane = li % LANES;
    let n = (g % groups) * ROWS + li / LANES;
    let b = (g / groups) % B;
    let t = g / (groups * B);
    var s = 0.0;
    if (n < N && t < pu(3u)) {
        let rb = (b * N + n) * pu(4u);
        let xo = at(5u, 0u, b, t, 0u);
        let nb = pu(0u) / BLOCK;
        for (var blk = lane; blk < nb; blk += LANES) {
            s += dot_block(rb, blk, xo + blk * BLOCK);
        }
    }
    red[li] = s;
    workgroupBarrier();
    for (var w = LANES / 2u; w > 0u; w >>= 1u) {
        if (lane < w) { red[li] += red[li + w]; }
        workgroupBarrier();
    }
    if (lane == 0u && n < N && t < pu(3u)) { O[at(10u, n, b, t, 0u)] = red[li]; }
}
