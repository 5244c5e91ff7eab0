// Copies In to Out in logical element order, converting between F32 and
// F16 (rounded to nearest even) and between layouts. One thread a value.
// Words: copyParams.
//!threads 256
//!use coords
kernel void copy(constant Params& P [[buffer(0)]], device const uchar* X [[buffer(2)]],
    device uchar* Y [[buffer(3)]],
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint e = tg.x * 256 + li;
    if (e >= P.N) return;
    uint4 a = coords(P.InShape, e);
    uint i = at(P.In, a.x, a.y, a.z, a.w);
    float v = P.InHalf != 0 ? float(((device const half*)X)[i]) : ((device const float*)X)[i];
    uint4 b = coords(P.OutShape, e);
    uint o = at(P.Out, b.x, b.y, b.z, b.w);
    if (P.OutHalf != 0) {
        ((device half*)Y)[o] = half(v);
    } else {
        ((device float*)Y)[o] = v;
    }
}
