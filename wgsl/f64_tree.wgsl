// A workgroup's float64 sum of one value a thread, added in a tree (the
// exact kernels' sums whose order only has to be bounded: f64_spread).
// NT is the kernel's workgroup size, a power of two.
//!use f64_exact
var<workgroup> partial: array<F64, NT>;

// f64_tree_sum returns the sum of every thread's s to every thread. Call
// from uniform control flow.
fn f64_tree_sum(li: u32, s: F64) -> F64 {
    partial[li] = s;
    workgroupBarrier();
    for (var w = NT / 2u; w > 0u; w >>= 1u) {
        if (li < w) { partial[li] = f64_add(partial[li], partial[li + w]); }
        workgroupBarrier();
    }
    return partial[0];
}
