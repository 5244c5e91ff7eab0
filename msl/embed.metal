// Out[:, t] = the row Tokens[t] of a table in its file layout. One
// threadgroup per token. Words: embedParams. A table past the device's
// largest buffer is split over dispatches: this one has rows R0 .. R1
// (exclusive) from byte Base and writes only their tokens; an
// out-of-range token gives a row of zeros, written by the Last dispatch.
//!threads 64
//!decode
kernel void embed(constant Params& P [[buffer(0)]], device const uchar* W [[buffer(2)]],
    device const uint* Tok [[buffer(3)]], device float* O [[buffer(4)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint t = tg.x;
    uint tok = Tok[at(P.Tokens, t, 0, 0, 0)];
    bool mine = tok >= P.R0 && tok < P.R1;
    if (!mine && (tok < P.Rows || P.Last == 0)) return;
    for (uint i = li; i < P.D; i += 64) {
        O[at(P.Out, i, t, 0, 0)] = mine ? dq(W, P.Base + (tok - P.R0) * P.RowBytes, i) : 0.0f;
    }
}
