// The K largest values of each row and their indices, largest first (ties:
// lower index first), K at most TOPK_CAP; one threadgroup per row. K
// passes of a search for the next best value cost K times a row; a radix
// select costs a few rows whatever K is: each round histograms the next 8
// bits of the values' order keys among the elements still in the running,
// and keeps the bin where the count from the top reaches K, until the
// elements at or above the kept prefix fit in threadgroup memory (after
// one or two rounds on logits), or all 32 bits are known and too many
// values tie with the K-th. The survivors are gathered, sorted by (key
// down, index up) and the first K written. Values are read as words: a
// float copy may quiet a NaN or flush a denormal, and the values written
// must be the row's bits. Words: topKParams.
//!threads 256
//!threadgroup 0 4224
//!threadgroup 1 1040
//!threadgroup 2 4096
//!threadgroup 3 4096
//!threadgroup 4 16
#define TOPK_CAP 1024
// Logits crowd into a few bins of the first digit, and atomics on one
// address serialize: four copies of the histogram, each padded by eight
// words so that a bin's copies sit in different banks.
#define TOPK_COPIES 4
#define TOPK_STRIDE 264

// order_key maps a float's bits to a word whose unsigned order is the
// floats' order. -0 maps with +0 (they are equal, so the lower index
// wins); NaN, which never compares greater on the CPU, goes below -Inf.
inline uint order_key(uint b) {
    if ((b & 0x7fffffffu) > 0x7f800000u) return 0u;
    if (b == 0x80000000u) return 0x80000000u;
    return (b >> 31) != 0 ? ~b : (b | 0x80000000u);
}

// before is the output order: larger key first, then lower index.
inline bool before(uint ka, uint ia, uint kb, uint ib) { return ka > kb || (ka == kb && ia < ib); }

// The search so far: the known top bits of the K-th largest key, which
// bits those are, and where the digit of this round starts.
struct Search { uint prefix, mask, shift; };

// What a sweep over the row does with each element.
#define TOPK_HISTOGRAM 0u // count the digit at shift of keys matching prefix
#define TOPK_GATHER 1u    // keep keys whose known bits reach prefix

// visit takes one element. A thread counts a run of elements falling in
// one bin itself and adds the run to the histogram once: on a flat row,
// or logits crowding a bin, every element's atomic would queue on one
// address. run is (bin, count). The candidates go to ckey and cidx,
// taken[0] counting them.
inline void visit(threadgroup atomic_uint* hist, threadgroup atomic_uint* taken, threadgroup uint* ckey,
                  threadgroup uint* cidx, uint mode, Search s, uint key, uint i, uint slot, thread uint2& run) {
    if (mode == TOPK_HISTOGRAM) {
        if ((key & s.mask) == s.prefix) {
            uint bin = (key >> s.shift) & 255u;
            if (bin != run.x) {
                if (run.y != 0) atomic_fetch_add_explicit(&hist[slot + run.x], run.y, memory_order_relaxed);
                run = uint2(bin, 0u);
            }
            run.y += 1;
        }
    } else if ((key & s.mask) >= s.prefix) {
        uint c = atomic_fetch_add_explicit(&taken[0], 1u, memory_order_relaxed);
        ckey[c] = key;
        cidx[c] = i;
    }
}

// sweep visits every element of the row.
inline void sweep(threadgroup atomic_uint* hist, threadgroup atomic_uint* taken, threadgroup uint* ckey,
                  threadgroup uint* cidx, uint mode, Search s, device const uint* X, uint b0, uint s0, uint n, uint li) {
    uint slot = (li % TOPK_COPIES) * TOPK_STRIDE;
    uint2 run = uint2(0u, 0u);
    for (uint i = li; i < n; i += 256) visit(hist, taken, ckey, cidx, mode, s, order_key(X[b0 + i * s0]), i, slot, run);
    if (run.y != 0) atomic_fetch_add_explicit(&hist[slot + run.x], run.y, memory_order_relaxed);
}

// suffix_sums turns suffix[0..255] into suffix[b] = the sum of entries
// b..255; suffix[256] stays 0.
inline void suffix_sums(threadgroup uint* suffix, uint li) {
    for (uint d = 1; d < 256; d <<= 1) {
        uint v = suffix[li];
        if (li + d < 256) v += suffix[li + d];
        threadgroup_barrier(mem_flags::mem_threadgroup);
        suffix[li] = v;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

kernel void topk(constant Params& P [[buffer(0)]], device const uint* X [[buffer(2)]],
    device uint* IDs [[buffer(3)]], device uint* Vals [[buffer(4)]],
    threadgroup atomic_uint* hist [[threadgroup(0)]], threadgroup uint* suffix [[threadgroup(1)]],
    threadgroup uint* ckey [[threadgroup(2)]], threadgroup uint* cidx [[threadgroup(3)]],
    threadgroup atomic_uint* taken [[threadgroup(4)]], // [0]: candidates taken; [1..3]: the kept bin
    uint3 tg [[threadgroup_position_in_grid]], uint li [[thread_index_in_threadgroup]]) {
    uint r = tg.x;
    uint n = P.N;
    uint K = P.K;
    uint b0 = at(P.In, 0, r, 0, 0);
    uint s0 = at(P.In, 1, r, 0, 0) - b0;
    if (li == 0) {
        suffix[256] = 0;
        atomic_store_explicit(&taken[0], 0u, memory_order_relaxed);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    Search s = {0u, 0u, 32u};
    uint above = 0;  // elements whose known bits exceed the prefix
    uint inside = n; // elements whose known bits equal it
    while (above + inside > TOPK_CAP && s.shift > 0) {
        s.shift -= 8;
        for (uint b = li; b < TOPK_COPIES * TOPK_STRIDE; b += 256) atomic_store_explicit(&hist[b], 0u, memory_order_relaxed);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        sweep(hist, taken, ckey, cidx, TOPK_HISTOGRAM, s, X, b0, s0, n, li);
        threadgroup_barrier(mem_flags::mem_threadgroup);
        uint c = 0;
        for (uint k = 0; k < TOPK_COPIES; k++) c += atomic_load_explicit(&hist[k * TOPK_STRIDE + li], memory_order_relaxed);
        suffix[li] = c;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        suffix_sums(suffix, li);
        // The K-th largest is in the one bin where the count from the top
        // first reaches K.
        if (above + suffix[li] >= K && above + suffix[li + 1] < K) {
            atomic_store_explicit(&taken[1], li, memory_order_relaxed);
            atomic_store_explicit(&taken[2], suffix[li + 1], memory_order_relaxed);
            atomic_store_explicit(&taken[3], c, memory_order_relaxed);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        s.prefix |= atomic_load_explicit(&taken[1], memory_order_relaxed) << s.shift;
        s.mask |= 255u << s.shift;
        above += atomic_load_explicit(&taken[2], memory_order_relaxed);
        inside = atomic_load_explicit(&taken[3], memory_order_relaxed);
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    uint count = K;
    if (above + inside <= TOPK_CAP) {
        count = above + inside;
        sweep(hist, taken, ckey, cidx, TOPK_GATHER, s, X, b0, s0, n, li);
    } else {
        // More than TOPK_CAP - above elements equal the K-th largest key,
        // tau, and the K - above of them with the lowest indices are
        // needed: each tie's rank among all ties. Each thread takes a run
        // of consecutive elements, counts its ties, and the counts of the
        // threads before it give the rank of its first.
        uint tau = s.prefix;
        uint need = K - above;
        uint len = (n + 255) / 256;
        uint lo = min(n, li * len);
        uint hi = min(n, lo + len);
        uint ties = 0;
        for (uint i = lo; i < hi; i++) {
            uint key = order_key(X[b0 + i * s0]);
            if (key > tau) {
                uint c = atomic_fetch_add_explicit(&taken[0], 1u, memory_order_relaxed);
                ckey[c] = key;
                cidx[c] = i;
            }
            ties += key == tau ? 1 : 0;
        }
        suffix[li] = ties;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        suffix_sums(suffix, li);
        uint rank = suffix[0] - suffix[li];
        for (uint i = lo; i < hi && rank < need; i++) {
            if (order_key(X[b0 + i * s0]) == tau) {
                ckey[above + rank] = tau;
                cidx[above + rank] = i;
                rank++;
            }
        }
    }
    // Sort the candidates with a bitonic network over the next power of
    // two, the slots past them holding keys that sort last.
    uint w = 1;
    while (w < count) w <<= 1;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint i = count + li; i < w; i += 256) {
        ckey[i] = 0;
        cidx[i] = 0xffffffffu;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint size = 2; size <= w; size <<= 1) {
        for (uint stride = size >> 1; stride > 0; stride >>= 1) {
            for (uint q = li; q < w / 2; q += 256) {
                uint a = 2 * q - (q & (stride - 1));
                uint b = a + stride;
                uint ka = ckey[a];
                uint ia = cidx[a];
                uint kb = ckey[b];
                uint ib = cidx[b];
                // Blocks of size alternate direction until the last.
                bool up = (a & size) == 0;
                if (up ? before(kb, ib, ka, ia) : before(ka, ia, kb, ib)) {
                    ckey[a] = kb;
                    cidx[a] = ib;
                    ckey[b] = ka;
                    cidx[b] = ia;
                }
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
    }
    for (uint k = li; k < K; k += 256) {
        uint i = cidx[k];
        IDs[at(P.IDs, k, r, 0, 0)] = i;
        Vals[at(P.Vals, k, r, 0, 0)] = X[b0 + i * s0];
    }
}
