// Where a workgroup of the matvecs by expert id (matmul_id,
// matmul_id_gate_up) works: ROWS·GROUPS rows (matvec_shape) from n0 for
// slot s of token t, whose chosen expert is e (Experts, past every expert, when
// t is past the step's tokens), against In's row starting at element xo
// (row s of the token, or its only row when InRows is 1: the slots share
// it). Words: expertParams.
struct ExpertRows { n0: u32, s: u32, t: u32, live: bool, e: u32, xo: u32 }

fn expert_rows(g: u32) -> ExpertRows {
    let N = pu(P_N);
    let S = pu(P_S);
    let groups = wg_count(N);
    let s = (g / groups) % S;
    let t = g / (groups * S);
    let live = t < pu(P_T);
    var e = pu(P_EXPERTS);
    if (live) { e = IDs[at(P_IDS, s, t, 0u, 0u)]; }
    var si = s;
    if (pu(P_IN_ROWS) == 1u) { si = 0u; }
    return ExpertRows((g % groups) * WG_ROWS, s, t, live, e, at(P_IN, 0u, si, t, 0u));
}
