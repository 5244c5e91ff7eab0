// F16 weights, one value a block.
//!use bytes
constant uint BLOCK = 1;
inline float dq(device const uchar* W, uint rb, uint i) { return h16(W, rb + 2 * i); }
