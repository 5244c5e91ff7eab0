// The query, key and value products of an attention block in one
// dispatch: two or three weights of one row length read by one (rounded)
// input, W the queries (NQ rows), V the keys and U the values (NK rows
// each). The values' weights may be of a second type (built "A+B": in the
// Q4_K_M mix, Q6_K values beside Q4_K queries and keys) when both round
// the input alike. A workgroup computes ROWS rows of one of them for one
// token, so the sums are matmul.wgsl's, in the same order, and the results
// those of a dispatch each bit for bit: two dispatches fewer a layer.
// Words: qkvParams.
//!use common
//!dot
//!use matvec
//!reduce
//!twin W V
//!other U dot matvec
const ROW_BYTES_WORD_U = P_ROW_BYTES_U;
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> OQ: array<f32>;
@group(0) @binding(5) var<storage, read_write> OK: array<f32>;
@group(0) @binding(6) var<storage, read_write> OV: array<f32>;
@group(0) @binding(7) var<storage, read> V: array<u32>;
@group(0) @binding(8) var<storage, read> U: array<u32>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let NQ = pu(P_NQ);
    let NK = pu(P_NK);
    let gq = (NQ + ROWS - 1u) / ROWS;
    let gk = (NK + ROWS - 1u) / ROWS;
    let per = gq + gk * (pu(P_COUNT) - 1u);
    let r = g % per;
    let t = g / per;
    let live = t < pu(P_T);
    let xo = at(P_IN, 0u, 0u, t, 0u);
    // which: 0 queries, 1 keys, 2 values; the same for the whole workgroup.
    var which = 0u;
    var n0 = r * ROWS;
    var N = NQ;
    if (r >= gq) {
        which = 1u + (r - gq) / gk;
        n0 = ((r - gq) % gk) * ROWS;
        N = NK;
    }
    if (live) {
        if (which == 0u) {
            accumulate(xo, n0, N - n0, l.li, 0u);
        } else if (which == 1u) {
            accumulate_V(xo, n0, N - n0, l.li, 0u);
        } else {
            accumulate_U(xo, n0, N - n0, l.li, 0u);
        }
    }
    let s = reduce_rows(l);
    if (!live || l.li >= ROWS || n0 + l.li >= N) { return; }
    let n = n0 + l.li;
    if (which == 0u) {
        OQ[at(P_OUT_Q, n, 0u, t, 0u)] = s;
    } else if (which == 1u) {
        OK[at(P_OUT_K, n, 0u, t, 0u)] = s;
    } else {
        OV[at(P_OUT_V, n, 0u, t, 0u)] = s;
    }
}
