// The K largest values of each row and their indices, largest first (ties:
// lower index first), K at most CAP; one workgroup per row. K passes of a
// search for the next best value cost K times a row; a radix select costs a
// few rows whatever K is: each round histograms the next 8 bits of the
// values' order keys among the elements still in the running, and keeps
// the bin where the count from the top reaches K, until the elements at or
// above the kept prefix fit in workgroup memory (after one or two rounds
// on logits), or all 32 bits are known and too many values tie with the
// K-th. The survivors are gathered, sorted by (key down, index up) and the
// first K written. One workgroup sweeping a vocabulary-long row is slow
// (a sampled token's candidates of 150 thousand logits took 0.6 ms), so
// a long row is taken in two dispatches: workgroup (row, c) first finds
// the K largest of chunk c (CHUNK values, the last chunk the rest), and
// the second dispatch finds the K largest of those CHUNKS·K candidates,
// its indices mapped through the first's (MAPPED). The K largest of a row
// are among its chunks' K largest, and a candidate's place follows its
// index (chunks in order, each sorted by index among equal keys), so the
// ties resolve as in one pass. Words: topKParams.
//!use common
// Words, not floats: a float copy may quiet a NaN or flush a denormal, and
// the values written must be the row's bits.
@group(0) @binding(2) var<storage, read> X: array<u32>;
@group(0) @binding(3) var<storage, read_write> IDs: array<u32>;
@group(0) @binding(4) var<storage, read_write> Vals: array<u32>;
// The first pass's indices of the candidates X holds (MAPPED), else X
// itself, unread.
@group(0) @binding(5) var<storage, read> Map: array<u32>;

// The most candidates gathered and sorted in workgroup memory; also the
// largest K (lowerTopK's limit).
const CAP = 1024u;
// Logits crowd into a few bins of the first digit, and atomics on one
// address serialize: four copies of the histogram, each padded by eight
// words so that a bin's copies sit in different banks.
const COPIES = 4u;
const STRIDE = 264u;

var<workgroup> hist: array<atomic<u32>, 1056>; // COPIES * STRIDE
var<workgroup> suffix: array<u32, 257>;
var<workgroup> ckey: array<u32, 1024>;
var<workgroup> cidx: array<u32, 1024>;
var<workgroup> taken: atomic<u32>;
// The kept bin, the elements above it and in it.
var<workgroup> pick: vec3<u32>;

// order_key maps a float's bits to a word whose unsigned order is the
// floats' order. -0 maps with +0 (they are equal, so the lower index
// wins); NaN, which never compares greater on the CPU, goes below -Inf.
fn order_key(b: u32) -> u32 {
    if ((b & 0x7fffffffu) > 0x7f800000u) { return 0u; }
    if (b == 0x80000000u) { return 0x80000000u; }
    return select(b | 0x80000000u, ~b, (b >> 31u) != 0u);
}

// before is the output order: larger key first, then lower index.
fn before(ka: u32, ia: u32, kb: u32, ib: u32) -> bool {
    return ka > kb || (ka == kb && ia < ib);
}

// What a sweep over the row does with each element.
const HISTOGRAM = 0u; // count the digit at shift of keys matching prefix
const GATHER = 1u; // keep keys whose known bits reach prefix

struct Search {
    prefix: u32, // the known top bits of the K-th largest key
    mask: u32, // which bits those are
    shift: u32, // where the digit of this round starts
}

// visit takes one element. A thread counts a run of elements falling in
// one bin itself and adds the run to the histogram once: on a flat row,
// or logits crowding a bin, every element's atomic would queue on one
// address. run is (bin, count).
fn visit(mode: u32, s: Search, key: u32, i: u32, slot: u32, run: ptr<function, vec2<u32>>) {
    if (mode == HISTOGRAM) {
        if ((key & s.mask) == s.prefix) {
            let bin = (key >> s.shift) & 255u;
            if (bin != (*run).x) {
                if ((*run).y != 0u) { atomicAdd(&hist[slot + (*run).x], (*run).y); }
                *run = vec2<u32>(bin, 0u);
            }
            (*run).y += 1u;
        }
    } else if ((key & s.mask) >= s.prefix) {
        let c = atomicAdd(&taken, 1u);
        ckey[c] = key;
        cidx[c] = i;
    }
}

// sweep visits every element of the row, eight loads in flight per thread:
// one load at a time waits out its latency per element.
fn sweep(mode: u32, s: Search, b0: u32, s0: u32, n: u32, li: u32) {
    let slot = (li % COPIES) * STRIDE;
    var run = vec2<u32>(0u, 0u);
    var i = li;
    for (; i + 7u * 256u < n; i += 8u * 256u) {
        var w: array<u32, 8>;
        for (var k = 0u; k < 8u; k++) { w[k] = X[b0 + (i + k * 256u) * s0]; }
        for (var k = 0u; k < 8u; k++) { visit(mode, s, order_key(w[k]), i + k * 256u, slot, &run); }
    }
    for (; i < n; i += 256u) { visit(mode, s, order_key(X[b0 + i * s0]), i, slot, &run); }
    if (run.y != 0u) { atomicAdd(&hist[slot + run.x], run.y); }
}

// suffix_sums turns suffix[0..255] into suffix[b] = the sum of entries
// b..255; suffix[256] stays 0.
fn suffix_sums(li: u32) {
    for (var d = 1u; d < 256u; d <<= 1u) {
        var v = suffix[li];
        if (li + d < 256u) { v += suffix[li + d]; }
        workgroupBarrier();
        suffix[li] = v;
        workgroupBarrier();
    }
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let chunks = pu(P_CHUNKS);
    let r = g / chunks;
    let ch = g % chunks;
    let first = ch * pu(P_CHUNK);
    var n = pu(P_CHUNK);
    if (ch == chunks - 1u) { n = pu(P_N) - first; }
    let K = pu(P_K);
    let b0 = at(P_IN, first, r, 0u, 0u);
    let s0 = at(P_IN, first + 1u, r, 0u, 0u) - b0;
    if (li == 0u) {
        suffix[256] = 0u;
        atomicStore(&taken, 0u);
    }
    workgroupBarrier();
    var s = Search(0u, 0u, 32u);
    var above = 0u; // elements whose known bits exceed the prefix
    var inside = n; // elements whose known bits equal it
    while (above + inside > CAP && s.shift > 0u) {
        s.shift -= 8u;
        for (var b = li; b < COPIES * STRIDE; b += 256u) { atomicStore(&hist[b], 0u); }
        workgroupBarrier();
        sweep(HISTOGRAM, s, b0, s0, n, li);
        workgroupBarrier();
        var c = 0u;
        for (var k = 0u; k < COPIES; k++) { c += atomicLoad(&hist[k * STRIDE + li]); }
        suffix[li] = c;
        workgroupBarrier();
        suffix_sums(li);
        // The K-th largest is in the one bin where the count from the top
        // first reaches K.
        if (above + suffix[li] >= K && above + suffix[li + 1u] < K) {
            pick = vec3<u32>(li, suffix[li + 1u], c);
        }
        let p = workgroupUniformLoad(&pick);
        s.prefix |= p.x << s.shift;
        s.mask |= 255u << s.shift;
        above += p.y;
        inside = p.z;
    }
    var count = K;
    if (above + inside <= CAP) {
        count = above + inside;
        sweep(GATHER, s, b0, s0, n, li);
    } else {
        // More than CAP - above elements equal the K-th largest key, tau,
        // and the K - above of them with the lowest indices are needed:
        // each tie's rank among all ties. Each thread takes a run of
        // consecutive elements, counts its ties, and the counts of the
        // threads before it give the rank of its first.
        let tau = s.prefix;
        let need = K - above;
        let run = (n + 255u) / 256u;
        let lo = min(n, li * run);
        let hi = min(n, lo + run);
        var ties = 0u;
        for (var i = lo; i < hi; i++) {
            let key = order_key(X[b0 + i * s0]);
            if (key > tau) {
                let c = atomicAdd(&taken, 1u);
                ckey[c] = key;
                cidx[c] = i;
            }
            ties += u32(key == tau);
        }
        suffix[li] = ties;
        workgroupBarrier();
        suffix_sums(li);
        var rank = suffix[0] - suffix[li];
        for (var i = lo; i < hi && rank < need; i++) {
            if (order_key(X[b0 + i * s0]) == tau) {
                ckey[above + rank] = tau;
                cidx[above + rank] = i;
                rank++;
            }
        }
    }
    // Sort the candidates with a bitonic network over the next power of
    // two, the slots past them holding keys that sort last.
    var m = 1u;
    while (m < count) { m <<= 1u; }
    for (var i = count + li; i < m; i += 256u) {
        ckey[i] = 0u;
        cidx[i] = 0xffffffffu;
    }
    workgroupBarrier();
    for (var size = 2u; size <= m; size <<= 1u) {
        for (var stride = size >> 1u; stride > 0u; stride >>= 1u) {
            for (var q = li; q < m / 2u; q += 256u) {
                let a = 2u * q - (q & (stride - 1u));
                let b = a + stride;
                let ka = ckey[a];
                let ia = cidx[a];
                let kb = ckey[b];
                let ib = cidx[b];
                // Blocks of size alternate direction until the last.
                let first = (a & size) == 0u;
                if (select(before(ka, ia, kb, ib), before(kb, ib, ka, ia), first)) {
                    ckey[a] = kb;
                    cidx[a] = ib;
                    ckey[b] = ka;
                    cidx[b] = ia;
                }
            }
            workgroupBarrier();
        }
    }
    for (var k = li; k < K; k += 256u) {
        let i = cidx[k];
        var id = first + i;
        if (pu(P_MAPPED) != 0u) { id = Map[at(P_MAP, i, r, 0u, 0u)]; }
        IDs[at(P_IDS, ch * K + k, r, 0u, 0u)] = id;
        Vals[at(P_VALS, ch * K + k, r, 0u, 0u)] = X[b0 + i * s0];
    }
}
