// What an exact product (matmul_exact, matmul_exact_blocks) writes besides
// its output y, by the epilogue at word 22: F = y + E (1, the residual
// add, one rounding, the CPU's Add in either order), silu(E)·y (2) or
// silu(y)·E (3: the gated unit, silu_exact's, as the exact SwiGLU kernel
// computes it), E at word 23 and F at 28, of Out's shape.
//!swap silu silu_exact
//!use epilogue
fn exact_epilogue(y: f32, n: u32, b: u32, t: u32) {
    let kind = pu(22u);
    if (kind == 0u) { return; }
    F[at(28u, n, b, t, 0u)] = epilogue_value(kind, y, E[at(23u, n, b, t, 0u)]);
}
