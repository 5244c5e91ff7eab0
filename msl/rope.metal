// Rotary position embedding of the first RopeDims elements of each head,
// with ggml's angles (rope_angle). One thread per element; the first of
// each rotated pair does the pair, the rest of the head is copied. Words:
// ropeKernelParams.
//!threads 256
//!use rope_angle
kernel void rope(constant Params& P [[buffer(0)]], constant Step& S [[buffer(1)]],
    device const float* X [[buffer(2)]], device const float* FF [[buffer(3)]], device float* O [[buffer(4)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint i = tg.x * 256 + li;
    uint hd = P.HeadDim;
    uint H = P.H;
    if (i >= hd * H * P.T) return;
    uint e = i % hd;
    uint h = (i / hd) % H;
    uint t = i / (hd * H);
    uint dims = P.RopeDims;
    if (e >= dims) {
        O[at(P.Out, e, h, t, 0)] = X[at(P.In, e, h, t, 0)];
        return;
    }
    uint p;
    if (P.RopeNeox != 0) {
        if (e >= dims / 2) return;
        p = e;
    } else {
        if ((e & 1) != 0) return;
        p = e / 2;
    }
    uint2 ab = rope_pair(P, p);
    float2 cs = rope_cs(P, FF, p, tok_pos(S, t));
    float x0 = X[at(P.In, ab.x, h, t, 0)];
    float x1 = X[at(P.In, ab.y, h, t, 0)];
    O[at(P.Out, ab.x, h, t, 0)] = x0 * cs.x - x1 * cs.y;
    O[at(P.Out, ab.y, h, t, 0)] = x0 * cs.y + x1 * cs.x;
}
