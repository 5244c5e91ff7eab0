// The indexing of the elementwise kernels: element i of Out's shape at
// A's, B's and Out's locations (B may broadcast: stride 0). Words:
// binaryParams.
//!use coords
struct Binary { uint a, b, out; };

inline Binary binary_at(constant Params& P, uint i) {
    uint4 c = coords(P.Shape, i);
    Binary r;
    r.a = at(P.A, c.x, c.y, c.z, c.w);
    r.b = at(P.B, c.x, c.y, c.z, c.w);
    r.out = at(P.Out, c.x, c.y, c.z, c.w);
    return r;
}
