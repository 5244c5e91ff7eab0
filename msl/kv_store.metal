// Writes a step's keys and values into their cache rows (pos+t, or where
// their places say: tok_base + tok_pos), both in one dispatch (threads past the keys' take the values), F16 caches rounded
// to nearest even as the CPU rounds. Words: kvStoreParams.
//!threads 256
inline void store(constant kvSide& s, constant Step& S, device const float* X, device uchar* C, uint i) {
    uint t = i / s.Width;
    uint d = i % s.Width;
    uint row = (tok_base(S, t) + tok_pos(S, t)) * s.Row;
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
        store(P.K, S, XK, CK, i);
    } else if (P.HasV != 0 && i - nk < P.V.Width * P.Tokens) {
        store(P.V, S, XV, CV, i - nk);
    }
}
