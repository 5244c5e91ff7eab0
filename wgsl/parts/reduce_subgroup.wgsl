// Sums every thread's ROWS partial sums (acc) over each matvec group of WG
// threads (matvec_shape) with subgroup operations: one subgroupAdd per row,
// then one value per subgroup through workgroup memory, so a single barrier
// where the shared-memory tree takes log2(WG). Subgroups may be as small as
// 4 lanes (WebGPU's minimum), which sizes the slots. Where a workgroup holds
// several groups, each group's subgroups are taken to be its own (lanes of
// consecutive invocation indices, as on the devices this runs on): a group
// then sums in the order of a workgroup of its own.
struct Lane {
    @builtin(local_invocation_index) li: u32,
    @builtin(subgroup_invocation_id) sl: u32,
    @builtin(subgroup_id) sg: u32,
    @builtin(num_subgroups) ns: u32,
}
const SLOTS = WG / 4u;
var<workgroup> red: array<f32, ROWS * SLOTS * GROUPS>;

// reduce_rows returns row r's total of its group to the group's thread r
// (li % WG = r < ROWS). Call it from uniform control flow.
fn reduce_rows(l: Lane) -> f32 {
    let per = l.ns / GROUPS;
    let grp = l.li / WG;
    let base = grp * ROWS * SLOTS;
    for (var r = 0u; r < ROWS; r++) {
        let s = subgroupAdd(acc[r]);
        if (l.sl == 0u) { red[base + r * SLOTS + l.sg - grp * per] = s; }
    }
    workgroupBarrier();
    var t = 0.0;
    let i0 = group_lane(l.li);
    if (i0 < ROWS) {
        for (var i = 0u; i < per; i++) { t += red[base + i0 * SLOTS + i]; }
    }
    return t;
}
