// RMSNorm of each row: Out = In / sqrt(mean(In²) + eps) · Weight. One
// threadgroup per row; In may be a strided view and Out may be In. Words:
// rmsNormParams.
//!threads 64
//!threadgroup 0 256
//!use group_reduce
kernel void rmsnorm(constant Params& P [[buffer(0)]], device const float* X [[buffer(2)]],
    device const float* Wt [[buffer(3)]], device float* O [[buffer(4)]],
    threadgroup float* red [[threadgroup(0)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint r = tg.x;
    uint i1 = r % P.D1;
    uint i2 = (r / P.D1) % P.D2;
    uint i3 = r / (P.D1 * P.D2);
    float s = 0.0f;
    for (uint i = li; i < P.N; i += 64) {
        float x = X[at(P.In, i, i1, i2, i3)];
        s += x * x;
    }
    float scale = 1.0f / sqrt(group_sum(red, li, 64, s) / float(P.N) + P.Eps);
    for (uint i = li; i < P.N; i += 64) {
        float y = X[at(P.In, i, i1, i2, i3)] * scale;
        if (P.HasWeight != 0) y *= Wt[at(P.Weight, i, 0, 0, 0)];
        O[at(P.Out, i, i1, i2, i3)] = y;
    }
}
