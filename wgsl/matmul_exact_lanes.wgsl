// The exact products of float weights (F32, F16) for a few tokens, with
// the work split as their order allows: ggml's dot keeps 64 accumulators
// (one token) or 16 (a batch), each a chain of its own through the row,
// so a workgroup of 64 threads takes one output, a lane a thread, and one
// thread then reduces the lanes as the CPU does and adds the row's tail
// (exact_float). One thread an output (matmul_exact) left a router's 64
// outputs to one workgroup, each thread walking its 2048 values alone:
// on the H100 a quarter of GLM-4.7-Flash's exact step. Words and
// bindings as matmul_exact's.
//!use common
//!exact
//!use exact_epilogue
//!use matmul_exact_io
//!use exact_lanes64

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let u = group_index(wid, nwg);
    let N = pu(1u);
    let B = pu(2u);
    let n = u % N;
    let b = (u / N) % B;
    let t = u / (N * B);
    let live = t < pu(3u);
    var order = pu(17u);
    if (t < pu(16u)) { order = pu(15u); }
    let gemm = order == ORDER_FLOAT_GEMM;
    let K = pu(0u);
    let L = select(64u, 16u, gemm);
    let np = select(K & ~63u, K, gemm);
    let xo = at(5u, 0u, b, t, 0u);
    let rb = pu(18u) + (b * N + n) * pu(4u);
    var a = 0.0;
    if (live && li < L) {
        for (var k = li; k < np; k += L) { a = fma_exact(wv(rb, k), X[xo + k], a); }
    }
    chains[li] = a;
    workgroupBarrier();
    if (!live || li != 0u) { return; }
    var y = chains_total(0u, !gemm);
    if (!gemm) { y = float_tail(y, rb, xo, np, K); }
    O[at(10u, n, b, t, 0u)] = y;
    exact_epilogue(y, n, b, t);
}
