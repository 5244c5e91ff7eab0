// The chosen experts' down products and their weighted sum in one dispatch
// (matmul_id.wgsl, then weighted_sum.wgsl): a workgroup computes ROWS rows
// of every slot s of token t, slot after slot, writes each product as
// matmul_id does, and Out[n, t] = Σ_s Weights[s, t] · D[n, s, t] in
// weighted_sum's order, so the results are those of the two dispatches bit
// for bit; when word 36 is set it also writes F = Out + E, the residual add
// after it. One dispatch fewer a mixture-of-experts layer. Words as
// matmul_id's (0 K, 1 N, 2 S, 3 T, 4 row bytes, 5 experts, 6 In rows per
// token, In at 7, IDs at 12, D at 17; the weights whole: experts 0 .. word
// 23, from byte 24 of W), Weights at 26, Out at 31, 36 the add, E at 37,
// F at 42.
//!use common
//!dot
//!use matvec
//!use expert_rows
//!reduce
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;
@group(0) @binding(6) var<storage, read_write> Wt: array<f32>;
@group(0) @binding(7) var<storage, read_write> Y: array<f32>;
@group(0) @binding(8) var<storage, read_write> E: array<f32>;
@group(0) @binding(9) var<storage, read_write> F: array<f32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let N = pu(1u);
    let S = pu(2u);
    let groups = (N + ROWS - 1u) / ROWS;
    let g = group_index(wid, nwg);
    // the groups of slot s of this workgroup's token, as matmul_id numbers them
    let first = (g / groups) * groups * S + g % groups;
    var y = 0.0;
    var x: ExpertRows;
    for (var s = 0u; s < S; s++) {
        x = expert_rows(first + s * groups);
        if (s > 0u) {
            // the last reduction's totals are still being read
            workgroupBarrier();
            for (var r = 0u; r < ROWS; r++) { acc[r] = 0.0; }
        }
        // An id out of range gives zeros, as in matmul_id.
        if (x.e < pu(23u)) { accumulate(x.xo, x.e * N + x.n0, N - x.n0, l.li, pu(24u)); }
        let sum = reduce_rows(l);
        if (x.live && l.li < ROWS && x.n0 + l.li < N) {
            O[at(17u, x.n0 + l.li, s, x.t, 0u)] = sum;
            y += Wt[at(26u, s, x.t, 0u, 0u)] * sum;
        }
    }
    if (!x.live || l.li >= ROWS || x.n0 + l.li >= N) { return; }
    let n = x.n0 + l.li;
    Y[at(31u, n, x.t, 0u, 0u)] = y;
    if (pu(36u) != 0u) { F[at(42u, n, x.t, 0u, 0u)] = y + E[at(37u, n, x.t, 0u, 0u)]; }
}
