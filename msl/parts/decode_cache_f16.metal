// Element reads of F16 caches.
#define HALF_CACHE true
inline float cload(device const uchar* C, uint i) { return float(((device const half*)C)[i]); }
