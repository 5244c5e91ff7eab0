// A decode step's RMSNorm of one row and the product that reads it, in
// one dispatch (MLA's q_a_norm and q_b): each workgroup sums the row's
// squares itself as rmsnorm_round's 256 threads do (rms_scale), scales
// it by the norm's weight, rounds it in 32-value Q8_0 blocks as
// quantize_act's packed mode 4 would and keeps that row in workgroup
// memory (xpart_q8_local), then is matmul_round's workgroup: the product,
// its output and the output's rounded copy for the product after it are
// what rmsnorm_round and matmul_round write, bit for bit. The normed row
// itself is never written: the compiler fuses only where nothing else
// reads it. Each workgroup reads the row and the norm's weight (K·8
// bytes, from cache after the first) in place of a dispatch in the
// step's chain. Words: normedProductParams.
//!swap matvec_shape matvec_shape_round
//!swap xpart_q8 xpart_q8_local
//!use common
//!dot
//!use matvec
//!reduce
//!use round_rows
//!use rms_scale
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> Y: array<u32>;
@group(0) @binding(6) var<storage, read> NW: array<f32>;

const NT = 256u;
// The blocks a round of the whole workgroup packs, 32 threads a block.
const PACKS = THREADS / 32u;
var<workgroup> amax: array<atomic<u32>, PACKS>;
var<workgroup> ints: array<i32, THREADS>;

// norm_row packs the normed row into xl. The block's scale comes from its
// largest magnitude alone (Q8_0's), so the order of atomicMax does not
// matter. Call from uniform control flow.
fn norm_row(li: u32) {
    let K = pu(P_K);
    let scale = rms_scale_of(li, K, pf(P_EPS), 0u, 0u, 0u);
    let blocks = K / 32u;
    let slot = li / 32u;
    let j = li % 32u;
    for (var b0 = 0u; b0 < blocks; b0 += PACKS) {
        let b = b0 + slot;
        let i = min(b * 32u + j, K - 1u);
        var y = X[at(P_IN, i, 0u, 0u, 0u)] * scale;
        y *= NW[at(P_NORM, i, 0u, 0u, 0u)];
        if (j == 0u) { atomicStore(&amax[slot], 0u); }
        workgroupBarrier();
        atomicMax(&amax[slot], bitcast<u32>(abs(y)));
        workgroupBarrier();
        let s = q8_scales(bitcast<f32>(atomicLoad(&amax[slot])), 0.0, 0u);
        ints[li] = q8_int(y, s);
        workgroupBarrier();
        if (b < blocks) {
            if (j % 4u == 0u) {
                xl_put(b * 8u + j / 4u, pack_q8(ints[li], ints[li + 1u], ints[li + 2u], ints[li + 3u]));
            } else if (j == 1u) {
                var sum = 0;
                for (var k = li - 1u; k < li + 31u; k++) { sum += ints[k]; }
                xl_put(K / 4u + 2u * b + 1u, bitcast<u32>(f32(sum)));
            } else if (j == 2u) {
                xl_put(K / 4u + 2u * b, bitcast<u32>(s.x));
            }
        }
        workgroupBarrier();
    }
}

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    norm_row(l.li);
    let g = group_index(wid, nwg);
    let N = pu(P_N);
    // this thread's matvec group's rows, and its place in the group
    let n0 = g * WG_ROWS + group_row(l.li);
    let li = group_lane(l.li);
    if (n0 < N) { accumulate(0u, n0, N - n0, li, pu(P_BASE)); }
    let s = reduce_rows(l);
    let own = li < ROWS && n0 + li < N;
    let r = at(P_OUT, n0 + li, 0u, 0u, 0u);
    if (own) { O[r] = s; }
    round_rows(l.li, own, s, r, RoundRows(pu(P_ROUND_MODE), pu(P_ROUND_OFF), pu(P_ROUND_STRIDE), pu(P_ROUND_K), pu(P_ROUND_ROWS)));
}
