// The value a product's epilogue writes from the product y and the other
// operand e: y + e (kind 1, the residual add, and the first add of kind
// 4), silu(e)·y (2) or silu(y)·e (3), the gated unit of the kernel's silu.
//!use silu
fn epilogue_value(kind: u32, y: f32, e: f32) -> f32 {
    if (kind == 2u) { return swiglu(e, y); }
    if (kind == 3u) { return swiglu(y, e); }
    return y + e;
}
