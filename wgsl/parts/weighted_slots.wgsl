// The chosen experts' down products of one workgroup's ROWS rows for every
// slot s of its token (matmul_id.wgsl's workgroups, slot after slot) and
// their sum weighted by Weights[s, t] in weighted_sum's order. The kernel
// defines slot_input, which returns where slot x's input row starts (a
// kernel may prepare it first), and slot_product, which gets each slot's
// product of row n. Each weighted product is rounded before its add, as
// weighted_sum.wgsl's and the CPU's (nofuse): a decode batch sums its
// slots there. Words: expertParams, Weights and Zero; the weights are
// bound whole.
//!use nofuse
struct SlotSum { x: ExpertRows, y: f32 }

// weighted_slots returns workgroup g's rows (of its last slot: the same
// rows and token as every slot's), n0 the first of the thread's matvec
// group, and thread li's weighted sum; call it from uniform control flow.
fn weighted_slots(g: u32, l: Lane) -> SlotSum {
    let N = pu(P_N);
    let S = pu(P_S);
    let groups = wg_count(N);
    let li = group_lane(l.li);
    // the groups of slot s of this workgroup's token, as matmul_id numbers them
    let first = (g / groups) * groups * S + g % groups;
    var y = 0.0;
    var x: ExpertRows;
    for (var s = 0u; s < S; s++) {
        x = expert_rows(first + s * groups);
        x.n0 += group_row(l.li);
        if (s > 0u) {
            // the last reduction's totals are still being read
            workgroupBarrier();
            for (var r = 0u; r < ROWS; r++) { acc[r] = 0.0; }
        }
        // An id out of range gives zeros, as in matmul_id.
        let xo = slot_input(x, l.li);
        if (x.e < pu(P_EXPERTS) && x.n0 < N) { accumulate(xo, x.e * N + x.n0, N - x.n0, li, 0u); }
        let sum = reduce_rows(l);
        if (x.live && li < ROWS && x.n0 + li < N) {
            slot_product(x, s, x.n0 + li, sum);
            y += nofuse(Wt[at(P_WEIGHTS, s, x.t, 0u, 0u)] * sum);
        }
    }
    return SlotSum(x, y);
}
