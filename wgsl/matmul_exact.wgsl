// Out[n, b, t] = Σ_k W[k, n, b] · In[k, b, t] summed in the CPU backend's
// order for the weight type and shape (engine/quant's Order), so the
// result is the CPU's bit for bit: Options.Exact. One thread an output,
// its sum serial as on the CPU. In is the packed rounded copy (its
// scales at word 19, blocks of word 20) or, for F32 weights, the packed
// input. Words: 0 K, 1 N, 2 B, 3 T, 4 row bytes, In at 5, Out at 10, 15
// the order of tokens below word 16, 17 the order of the others, 18 the
// byte where W's row 0 starts, 19 and 20 In's scales, 21 zero (nofuse),
// 22 the epilogue (exact_epilogue), E at 23, F at 28.
//!use common
//!exact
//!use exact_epilogue
//!use matmul_exact_io

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let u = group_index(wid, nwg) * 64u + li;
    let N = pu(1u);
    let B = pu(2u);
    let n = u % N;
    let b = (u / N) % B;
    let t = u / (N * B);
    if (t >= pu(3u)) { return; }
    let xo = at(5u, 0u, b, t, 0u);
    var order = pu(17u);
    if (t < pu(16u)) { order = pu(15u); }
    let so = pu(19u) + 2u * (xo / pu(20u));
    let y = exact_dot(pu(18u) + (b * N + n) * pu(4u), xo, so, pu(0u), order);
    O[at(10u, n, b, t, 0u)] = y;
    exact_epilogue(y, n, b, t);
}
