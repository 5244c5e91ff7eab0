// Element reads of F32 caches.
#define HALF_CACHE false
inline float cload(device const uchar* C, uint i) { return ((device const float*)C)[i]; }
