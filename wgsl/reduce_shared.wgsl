// Sums every thread's ROWS partial sums (acc) over a workgroup of WG
// threads through workgroup memory alone, for adapters without subgroup
// operations: a tree of log2(WG) rounds, all rows at once.
struct Lane {
    @builtin(local_invocation_index) li: u32,
}
var<workgroup> red: array<f32, ROWS * WG>;

// reduce_rows returns row li's total to threads li < ROWS. Call it from
// uniform control flow.
fn reduce_rows(l: Lane) -> f32 {
    for (var r = 0u; r < ROWS; r++) { red[r * WG + l.li] = acc[r]; }
    workgroupBarrier();
    for (var w = WG / 2u; w > 0u; w >>= 1u) {
        if (l.li < w) {
            for (var r = 0u; r < ROWS; r++) { red[r * WG + l.li] += red[r * WG + l.li + w]; }
        }
        workgroupBarrier();
    }
    if (l.li < ROWS) { return red[l.li * WG]; }
    return 0.0;
}
