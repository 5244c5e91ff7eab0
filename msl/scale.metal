// Out = In · S (In bound as A and B). One thread a value.
// Words: binaryParams.
//!threads 256
//!use binary
kernel void scale(constant Params& P [[buffer(0)]], device const float* A [[buffer(2)]],
    device const float* B [[buffer(3)]], device float* O [[buffer(4)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint i = tg.x * 256 + li;
    if (i >= P.Count) return;
    Binary e = binary_at(P, i);
    O[e.out] = A[e.a] * P.S;
}
