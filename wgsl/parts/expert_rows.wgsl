// Where a workgroup of the matvecs by expert id (matmul_id,
// matmul_id_gate_up) works: ROWS·GROUPS rows (matvec_shape) from n0 for
// slot s of token t, whose chosen expert is e (word 5, past every expert,
// when t is past the step's tokens), against In's row starting at element
// xo (row s of the token, or its only row when word 6 says the experts
// share it).
struct ExpertRows { n0: u32, s: u32, t: u32, live: bool, e: u32, xo: u32 }

fn expert_rows(g: u32) -> ExpertRows {
    let N = pu(1u);
    let S = pu(2u);
    let groups = wg_count(N);
    let s = (g / groups) % S;
    let t = g / (groups * S);
    let live = t < pu(3u);
    var e = pu(5u);
    if (live) { e = IDs[at(12u, s, t, 0u, 0u)]; }
    var si = s;
    if (pu(6u) == 1u) { si = 0u; }
    return ExpertRows((g % groups) * WG_ROWS, s, t, live, e, at(7u, 0u, si, t, 0u));
}
