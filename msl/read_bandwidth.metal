// Streams a buffer through the device as a bandwidth yardstick: every
// thread reads 16-byte words, a grid's stride apart so that neighbouring
// threads read neighbouring words, and folds them into one word a
// threadgroup writes (which keeps the reads from being optimised away).
// Decode reads its weights this way at best, so its bytes a second over
// this kernel's is how close it comes to the memory. Words: readParams.
//!threads 256
//!threadgroup 0 1024
kernel void read_bandwidth(constant Params& P [[buffer(0)]], device const uint4* X [[buffer(2)]],
    device uint* O [[buffer(3)]], threadgroup uint* folded [[threadgroup(0)]],
    uint3 tg [[threadgroup_position_in_grid]], uint3 ng [[threadgroups_per_grid]],
    uint li [[thread_index_in_threadgroup]]) {
    uint stride = ng.x * 256;
    uint4 acc = uint4(0u);
    for (uint i = tg.x * 256 + li; i < P.Words; i += stride) {
        uint4 x = X[i];
        acc = uint4(acc.x ^ x.x, acc.y ^ x.y, acc.z ^ x.z, acc.w ^ x.w);
    }
    folded[li] = acc.x ^ acc.y ^ acc.z ^ acc.w;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (li == 0) {
        uint f = 0;
        for (uint j = 0; j < 256; j++) f ^= folded[j];
        O[tg.x] = f;
    }
}
