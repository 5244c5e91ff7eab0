// Sums every thread's ROWS partial sums (acc) over a workgroup of WG
// threads with subgroup operations: one subgroupAdd per row, then one value
// per subgroup through workgroup memory, so a single barrier where the
// shared-memory tree takes log2(WG). Subgroups may be as small as 4 lanes
// (WebGPU's minimum), which sizes the slots.
struct Lane {
    @builtin(local_invocation_index) li: u32,
    @builtin(subgroup_invocation_id) sl: u32,
    @builtin(subgroup_id) sg: u32,
    @builtin(num_subgroups) ns: u32,
}
const SLOTS = WG / 4u;
var<workgroup> red: array<f32, ROWS * SLOTS>;

// reduce_rows returns row li's total to threads li < ROWS. Call it from
// uniform control flow.
fn reduce_rows(l: Lane) -> f32 {
    for (var r = 0u; r < ROWS; r++) {
        let s = subgroupAdd(acc[r]);
        if (l.sl == 0u) { red[r * SLOTS + l.sg] = s; }
    }
    workgroupBarrier();
    var t = 0.0;
    if (l.li < ROWS) {
        for (var i = 0u; i < l.ns; i++) { t += red[l.li * SLOTS + i]; }
    }
    return t;
}
