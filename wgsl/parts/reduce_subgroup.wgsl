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

const_assert ROWS <= 32u;

// reduce_row puts the subgroup's sum of row r's partial sums v in its slot.
fn reduce_row(l: Lane, at_slot: u32, r: u32, v: f32) {
    let s = subgroupAdd(v);
    if (l.sl == 0u) { red[at_slot + r * SLOTS] = s; }
}

// reduce_rows returns row r's total of its group to the group's thread r
// (li % WG = r < ROWS). Call it from uniform control flow.
fn reduce_rows(l: Lane) -> f32 {
    let per = l.ns / GROUPS;
    let grp = l.li / WG;
    let base = grp * ROWS * SLOTS;
    // The rows written out (at most 32): acc indexed in a loop may be
    // kept in memory by the driver.
    let at_slot = base + l.sg - grp * per;
    reduce_row(l, at_slot, 0u, acc[0]);
    if (ROWS > 1u) { reduce_row(l, at_slot, 1u, acc[min(1u, ROWS - 1u)]); }
    if (ROWS > 2u) { reduce_row(l, at_slot, 2u, acc[min(2u, ROWS - 1u)]); }
    if (ROWS > 3u) { reduce_row(l, at_slot, 3u, acc[min(3u, ROWS - 1u)]); }
    if (ROWS > 4u) { reduce_row(l, at_slot, 4u, acc[min(4u, ROWS - 1u)]); }
    if (ROWS > 5u) { reduce_row(l, at_slot, 5u, acc[min(5u, ROWS - 1u)]); }
    if (ROWS > 6u) { reduce_row(l, at_slot, 6u, acc[min(6u, ROWS - 1u)]); }
    if (ROWS > 7u) { reduce_row(l, at_slot, 7u, acc[min(7u, ROWS - 1u)]); }
    if (ROWS > 8u) { reduce_row(l, at_slot, 8u, acc[min(8u, ROWS - 1u)]); }
    if (ROWS > 9u) { reduce_row(l, at_slot, 9u, acc[min(9u, ROWS - 1u)]); }
    if (ROWS > 10u) { reduce_row(l, at_slot, 10u, acc[min(10u, ROWS - 1u)]); }
    if (ROWS > 11u) { reduce_row(l, at_slot, 11u, acc[min(11u, ROWS - 1u)]); }
    if (ROWS > 12u) { reduce_row(l, at_slot, 12u, acc[min(12u, ROWS - 1u)]); }
    if (ROWS > 13u) { reduce_row(l, at_slot, 13u, acc[min(13u, ROWS - 1u)]); }
    if (ROWS > 14u) { reduce_row(l, at_slot, 14u, acc[min(14u, ROWS - 1u)]); }
    if (ROWS > 15u) { reduce_row(l, at_slot, 15u, acc[min(15u, ROWS - 1u)]); }
    if (ROWS > 16u) { reduce_row(l, at_slot, 16u, acc[min(16u, ROWS - 1u)]); }
    if (ROWS > 17u) { reduce_row(l, at_slot, 17u, acc[min(17u, ROWS - 1u)]); }
    if (ROWS > 18u) { reduce_row(l, at_slot, 18u, acc[min(18u, ROWS - 1u)]); }
    if (ROWS > 19u) { reduce_row(l, at_slot, 19u, acc[min(19u, ROWS - 1u)]); }
    if (ROWS > 20u) { reduce_row(l, at_slot, 20u, acc[min(20u, ROWS - 1u)]); }
    if (ROWS > 21u) { reduce_row(l, at_slot, 21u, acc[min(21u, ROWS - 1u)]); }
    if (ROWS > 22u) { reduce_row(l, at_slot, 22u, acc[min(22u, ROWS - 1u)]); }
    if (ROWS > 23u) { reduce_row(l, at_slot, 23u, acc[min(23u, ROWS - 1u)]); }
    if (ROWS > 24u) { reduce_row(l, at_slot, 24u, acc[min(24u, ROWS - 1u)]); }
    if (ROWS > 25u) { reduce_row(l, at_slot, 25u, acc[min(25u, ROWS - 1u)]); }
    if (ROWS > 26u) { reduce_row(l, at_slot, 26u, acc[min(26u, ROWS - 1u)]); }
    if (ROWS > 27u) { reduce_row(l, at_slot, 27u, acc[min(27u, ROWS - 1u)]); }
    if (ROWS > 28u) { reduce_row(l, at_slot, 28u, acc[min(28u, ROWS - 1u)]); }
    if (ROWS > 29u) { reduce_row(l, at_slot, 29u, acc[min(29u, ROWS - 1u)]); }
    if (ROWS > 30u) { reduce_row(l, at_slot, 30u, acc[min(30u, ROWS - 1u)]); }
    if (ROWS > 31u) { reduce_row(l, at_slot, 31u, acc[min(31u, ROWS - 1u)]); }
    workgroupBarrier();
    var t = 0.0;
    let i0 = group_lane(l.li);
    if (i0 < ROWS) {
        for (var i = 0u; i < per; i++) { t += red[base + i0 * SLOTS + i]; }
    }
    return t;
}
