// Writes a step's keys and values into cache rows pos+t, both in one
// dispatch (threads past the keys' take the values), F16 caches rounded
// to nearest even as the CPU rounds. Words: kvStoreParams.
//!threads 256
inline void store(constant kvSide& s, device const float* X, device uchar* C, uint i, uint pos) {
    uint t = i / s.Width;
    uint d = i % s.Width;
    uint row = (pos + t) * s.Row;
    float x = X[at(s.Src, d, t, 0, 0)];
    if (s.Half != 0) {
        ((device half*)C)[row + d] = half(x);
    } else {
        ((device float*)C)[row + d] = x;
    }
}

kernel void kv_store(constant Params& P [[buffer(0)]], constant Step& S [[buffer(1)]],
    device const float* XK [[buffer(2)]], device uchar* CK [[buffer(3)]],
    device const float* XV [[buffer(4)]], device uchar* CV [[buffer(5)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint i = tg.x * 256 + li;
    uint nk = P.K.Width * P.Tokens;
    if (i < nk) {
        store(P.K, XK, CK, i, S.pos);
    } else if (P.HasV != 0 && i - nk < P.V.Width * P.Tokens) {
        store(P.V, XV, CV, i - nk, S.pos);
    }
}
