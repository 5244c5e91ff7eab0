// F32 weights: dq(W, rb, i) is element i of the row at byte rb; a block
// is one value.
constant uint BLOCK = 1;
inline float dq(device const uchar* W, uint rb, uint i) { return ((device const float*)(W + rb))[i]; }
