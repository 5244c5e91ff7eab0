// The matvec part of weights of one value a block (F32, F16): a part is
// one value. Their activations may start at any element (the caller's own
// F32 tensor), so X is read one element at a time.
constant uint PARTS = 1;
typedef float XPart;
inline XPart xpart(device const float* X, uint xo, uint blk, uint part) { return X[xo + blk]; }
inline float dot_part(device const uchar* W, uint rb, uint blk, uint part, thread const XPart& x) { return dq(W, rb, blk) * x; }
