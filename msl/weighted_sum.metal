// Out[n, t] = Σ_s In[n, s, t] · Weights[s, t]: the chosen experts' outputs
// combined, in slot order as the CPU adds them. One thread a value.
// Words: weightedSumParams.
//!threads 256
kernel void weighted_sum(constant Params& P [[buffer(0)]], device const float* X [[buffer(2)]],
    device const float* Wt [[buffer(3)]], device float* O [[buffer(4)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint i = tg.x * 256 + li;
    uint N = P.N;
    if (i >= N * P.T) return;
    uint n = i % N;
    uint t = i / N;
    float y = 0.0f;
    for (uint s = 0; s < P.S; s++) y += Wt[at(P.Weights, s, t, 0, 0)] * X[at(P.In, n, s, t, 0)];
    O[at(P.Out, n, t, 0, 0)] = y;
}
