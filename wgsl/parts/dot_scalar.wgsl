// The matvec part of weights of one value a block (F32, F16): a part is one
// value. Their activations may start at any element (the caller's own F32
// tensor, rounded rows of odd length), so X is read one element at a time;
// neighbouring threads still read neighbouring words.
const PARTS = 1u;
alias XPart = f32;
fn xpart(xo: u32, blk: u32, part: u32) -> XPart {
    let i = xo + blk;
    return bitcast<f32>(X[i >> 2u][i & 3u]);
}
fn dot_part(rb: u32, blk: u32, part: u32, x: XPart) -> f32 { return dq(rb, blk) * x; }
//!use wpart_lazy
