// Where a workgroup of a decode batch's products by expert id works
// (matmul_id_tokens, matmul_id_tokens_gate_up): on a run of up to TOKENS
// pairs of one expert's group as expert_groups.wgsl lists them in G, from
// place q of the list. Each group's places are taken TOKENS at a time from
// its first, so a workgroup whose place does not start a run has none and
// leaves. x holds the run's activation rows, live of them (a place past
// the group's last repeats it, uncomputed). Words: expertParams; the
// kernel binds G.
struct ExpertRun { starts: bool, e: u32, q: u32, end: u32, live: u32, x: TokenRows }

// pair_at is the pair (s + S·t) listed at place q.
fn pair_at(q: u32) -> u32 { return G[pu(P_EXPERTS) + 2u + q]; }

// pair_row is where the activation row of the pair listed at place q
// starts: row s of its token, or the token's only row when InRows is 1.
fn pair_row(q: u32) -> u32 {
    let S = pu(P_S);
    let p = pair_at(q);
    var si = p % S;
    if (pu(P_IN_ROWS) == 1u) { si = 0u; }
    return at(P_IN, 0u, si, p / S, 0u);
}

// expert_run is the run starting at place q, if one does. G's values are
// the workgroup's alike, so the branches on them keep its barriers uniform.
fn expert_run(q: u32) -> ExpertRun {
    var r: ExpertRun;
    let P = pu(P_S) * pu(P_T);
    if (q >= P) { return r; }
    let e = G[pu(P_EXPERTS) + 2u + P + q];
    let end = G[e + 1u];
    r.starts = (q - G[e]) % TOKENS == 0u;
    r.e = e;
    r.q = q;
    r.end = end;
    r.live = min(end - q, TOKENS);
    if (!r.starts) { return r; }
    let last = end - 1u;
    let x0 = pair_row(q);
    let x1 = pair_row(min(q + 1u, last));
    let x2 = pair_row(min(q + 2u, last));
    let x3 = pair_row(min(q + 3u, last));
    r.x = TokenRows(x0, x1, x2, x3, x3, x3, x3, x3);
    if (TOKENS > 4u) {
        r.x.x4 = pair_row(min(q + 4u, last));
        r.x.x5 = pair_row(min(q + 5u, last));
        r.x.x6 = pair_row(min(q + 6u, last));
        r.x.x7 = pair_row(min(q + 7u, last));
    }
    return r;
}

// A workgroup's rows (WROWS of them from n0) and run: workgroup g takes
// the rows of group g % groups at place g / groups.
struct RunRows { n0: u32, r: ExpertRun }

fn run_rows(g: u32) -> RunRows {
    let groups = (pu(P_N) + WROWS - 1u) / WROWS;
    return RunRows((g % groups) * WROWS, expert_run(g / groups));
}

// run_output is where thread li's total goes, row n of the pair at place
// r.q + li / WROWS: false for the threads holding no (row, pair) of the
// run, and those past its rows or pairs.
struct RunOutput { ok: bool, n: u32, s: u32, t: u32 }

fn run_output(li: u32, n0: u32, r: ExpertRun) -> RunOutput {
    var o: RunOutput;
    let q = r.q + li / WROWS;
    o.n = n0 + li % WROWS;
    o.ok = li < ROWS && o.n < pu(P_N) && q < r.end;
    if (!o.ok) { return o; }
    let p = pair_at(q);
    o.s = p % pu(P_S);
    o.t = p / pu(P_S);
    return o;
}
