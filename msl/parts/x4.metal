// x4 is the four activations from element i (a multiple of 4) of X.
inline float4 x4(device const float* X, uint i) { return *(device const float4*)(X + i); }
