// Sums every thread's ROWS partial sums (acc) over each matvec group of WG
// threads (matvec_shape) through workgroup memory alone, for adapters
// without subgroup operations: a tree of log2(WG) rounds, all rows at once.
struct Lane {
    @builtin(local_invocation_index) li: u32,
}
var<workgroup> red: array<f32, ROWS * THREADS>;

// reduce_rows returns row r's total of its group to the group's thread r
// (li % WG = r < ROWS). Call it from uniform control flow.
fn reduce_rows(l: Lane) -> f32 {
    let base = group_row(l.li) * WG;
    let i0 = group_lane(l.li);
    for (var r = 0u; r < ROWS; r++) { red[base + r * WG + i0] = acc[r]; }
    workgroupBarrier();
    for (var w = WG / 2u; w > 0u; w >>= 1u) {
        if (i0 < w) {
            for (var r = 0u; r < ROWS; r++) { red[base + r * WG + i0] += red[base + r * WG + i0 + w]; }
        }
        workgroupBarrier();
    }
    if (i0 < ROWS) { return red[base + i0 * WG]; }
    return 0.0;
}
