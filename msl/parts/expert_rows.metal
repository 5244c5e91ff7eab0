// Where a threadgroup of the matvecs by expert id (matmul_id) works:
// MV_ROWS rows from n0 for slot s of token t, whose chosen expert is e,
// against In's row starting at element xo (row s of the token, or its
// only row when InRows is 1: the slots share it). Words: expertParams.
struct ExpertRows { uint n0, s, t, e, xo; };

inline ExpertRows expert_rows(constant Params& P, device const uint* IDs, uint g) {
    uint groups = (P.N + MV_ROWS - 1) / MV_ROWS;
    ExpertRows x;
    x.n0 = (g % groups) * MV_ROWS;
    x.s = (g / groups) % P.S;
    x.t = g / (groups * P.S);
    x.e = IDs[at(P.IDs, x.s, x.t, 0, 0)];
    x.xo = at(P.In, 0, P.InRows == 1 ? 0 : x.s, x.t, 0);
    return x;
}
