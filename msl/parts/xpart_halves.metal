// Activations of a matvec part of the 32-value blocks whose nibble bytes
// hold values j and j+16 (Q4_1, Q5_0, Q5_1): four parts a block, part p
// taking values 4p..4p+3 and 16+4p..16+4p+3. sum (for the blocks with a
// minimum) is the same for every row, so it is taken once here.
//!use x4
constant uint PARTS = 4;
struct XPart { float4 lo, hi; float sum; };
inline XPart xpart(device const float* X, uint xo, uint blk, uint part) {
    uint i = xo + blk * 32 + part * 4;
    float4 lo = x4(X, i);
    float4 hi = x4(X, i + 16);
    float4 s = lo + hi;
    return XPart{lo, hi, s.x + s.y + s.z + s.w};
}
