// A decode step's product with the residual add as its epilogue (matmul's
// kind 1: F = P + E), whose last workgroup to finish then computes the
// RMSNorm of the row F and its rounding for the products after it, as
// rmsnorm_round would in a dispatch of its own (a layer's attention and
// feed-forward norms follow such a product). The saving is that
// dispatch: in a decode step's chain of dependent dispatches each costs
// about as much as a norm's own work.
//
// Workgroups count themselves done on Done[0] once their part of F is
// stored; the one that counts last reads all of F. The storage barriers
// before the count and after it order the stores and the reads around it,
// device-wide where the shader compiler gives storageBarrier device scope,
// which the compiler checks before choosing this kernel
// (ops_norm_tail.go). (Reading F through atomics instead timed the same on
// an H100.) The last workgroup sets the count back to zero for
// the next dispatch. The product's sums are matmul's, the norm's
// rmsnorm_round's (rms_scale over 256 threads) and the rounding
// quantize_act's (a block's largest magnitude does not depend on the order
// it is found in), so every output is theirs bit for bit; the products
// after read the packed Q8_0 rounding (mode 4), the one this kernel
// writes. Words: matmulNormParams.
//!swap matvec_shape matvec_shape_norm
//!use common
//!dot
//!use matvec
//!reduce
//!use epilogue
//!use rms_scale
//!use round_q8
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;
@group(0) @binding(7) var<storage, read> NW: array<f32>;
@group(0) @binding(8) var<storage, read_write> NO: array<f32>;
@group(0) @binding(9) var<storage, read_write> NY: array<u32>;
@group(0) @binding(10) var<storage, read_write> Done: array<atomic<u32>>;

const NT = 256u;
const_assert THREADS == NT;

// The norm's input: the row this dispatch wrote.
fn norm_in(i: u32, i1: u32, i2: u32, i3: u32) -> f32 { return F[at(P_F, i, 0u, 0u, 0u)]; }

// Per thread of the tail: its four values' largest magnitude and the sum
// of their 8-bit integers, for the thread that writes their block's words.
var<workgroup> quad_max: array<f32, NT>;
var<workgroup> quad_sum: array<i32, NT>;

// quad_w is the norm weight's four values of thread li in pass p (values
// 1024p + 4li .. +3; the last four where those are past the row).
fn quad_w(p: u32, li: u32, N: u32) -> vec4<f32> {
    let k = min(p * 4u * NT + 4u * li, N - 4u);
    return vec4<f32>(NW[at(P_NORM_WEIGHT, k, 0u, 0u, 0u)], NW[at(P_NORM_WEIGHT, k + 1u, 0u, 0u, 0u)], NW[at(P_NORM_WEIGHT, k + 2u, 0u, 0u, 0u)], NW[at(P_NORM_WEIGHT, k + 3u, 0u, 0u, 0u)]);
}

// norm_quads normalises the row, four values a thread and 1024 a pass
// (eight threads a Q8_0 block of 32), writes it to NO, and writes its
// packed Q8_0 words to NY: the integers four to a word at words i/4, and
// block b's f16 scale and integer sum, as f32 bits, at words N/4+2b and
// N/4+2b+1 (xpart_q8's layout). A block's scale is q8_scales' from its
// largest magnitude, as round_block finds it. The weight's values of the
// first four passes (rows up to 4096) are loaded before the row's sum, so
// that their wait (from memory: the step's weights have passed through
// the cache since) passes during it. Few values a thread keep the
// kernel's registers, which its product's workgroups are given too, near
// the product's own. Call from uniform control flow.
fn norm_quads(li: u32, N: u32) {
    let w0 = quad_w(0u, li, N);
    let w1 = quad_w(1u, li, N);
    let w2 = quad_w(2u, li, N);
    let w3 = quad_w(3u, li, N);
    let scale = rms_scale(li, 0u, 0u, 0u);
    quad_pass(0u, li, scale, w0, N);
    if (4u * NT < N) { quad_pass(1u, li, scale, w1, N); }
    if (8u * NT < N) { quad_pass(2u, li, scale, w2, N); }
    if (12u * NT < N) { quad_pass(3u, li, scale, w3, N); }
    for (var p = 4u; p * 4u * NT < N; p++) { quad_pass(p, li, scale, quad_w(p, li, N), N); }
}

// quad_pass is norm_quads' pass p, w the weight's values of thread li.
fn quad_pass(p: u32, li: u32, scale: f32, w: vec4<f32>, N: u32) {
    let i = p * 4u * NT + 4u * li;
    let live = i < N;
    let k = min(i, N - 4u);
    let x = vec4<f32>(F[at(P_F, k, 0u, 0u, 0u)], F[at(P_F, k + 1u, 0u, 0u, 0u)], F[at(P_F, k + 2u, 0u, 0u, 0u)], F[at(P_F, k + 3u, 0u, 0u, 0u)]);
    let y = x * scale * w;
    let a = abs(y);
    quad_max[li] = max(max(a.x, a.y), max(a.z, a.w));
    workgroupBarrier();
    let first = li & ~7u;
    var m = 0.0;
    for (var j = first; j < first + 8u; j++) { m = max(m, quad_max[j]); }
    let s = q8_scales(m, 0.0, 0u);
    let q = vec4<i32>(q8_int(y.x, s), q8_int(y.y, s), q8_int(y.z, s), q8_int(y.w, s));
    quad_sum[li] = q.x + q.y + q.z + q.w;
    if (live) {
        NO[at(P_NORM_OUT, i, 0u, 0u, 0u)] = y.x;
        NO[at(P_NORM_OUT, i + 1u, 0u, 0u, 0u)] = y.y;
        NO[at(P_NORM_OUT, i + 2u, 0u, 0u, 0u)] = y.z;
        NO[at(P_NORM_OUT, i + 3u, 0u, 0u, 0u)] = y.w;
        NY[i / 4u] = pack_q8(q.x, q.y, q.z, q.w);
    }
    workgroupBarrier();
    if (live && li == first) {
        var sum = 0;
        for (var j = first; j < first + 8u; j++) { sum += quad_sum[j]; }
        NY[N / 4u + 2u * (i / 32u)] = bitcast<u32>(s.x);
        NY[N / 4u + 2u * (i / 32u) + 1u] = bitcast<u32>(f32(sum));
    }
}

// Whether this workgroup counted last.
var<workgroup> last: u32;

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let N = pu(P_N);
    let n0 = g * WG_ROWS + group_row(l.li);
    let li = group_lane(l.li);
    if (n0 < N) { accumulate(at(P_IN, 0u, 0u, 0u, 0u), n0, N - n0, li, pu(P_BASE)); }
    let s = reduce_rows(l);
    if (li < ROWS && n0 + li < N) {
        let n = n0 + li;
        O[at(P_OUT, n, 0u, 0u, 0u)] = s;
        F[at(P_F, n, 0u, 0u, 0u)] = epilogue_value(1u, s, E[at(P_E, n, 0u, 0u, 0u)]);
    }
    storageBarrier();
    if (l.li == 0u) {
        let done = atomicAdd(&Done[0], 1u) + 1u;
        // Every workgroup counts, those of a grid's surplus (past the
        // rows, where a large grid spills into y) too.
        last = select(0u, 1u, done == nwg.x * nwg.y * nwg.z);
    }
    if (workgroupUniformLoad(&last) == 0u) { return; }
    storageBarrier();
    // The norm as rmsnorm_round's workgroups sum it, then a thread a
    // block of 32 values: the block's Q8_0 rounding in quantize_act's
    // packed mode 4 (its words: round_block.wgsl's round_store).
    norm_quads(l.li, N);
    if (l.li == 0u) { atomicStore(&Done[0], 0u); }
}
