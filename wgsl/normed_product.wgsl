// A decode step's product of an RMSNorm's output with the norm done by
// each workgroup on its own copy of the row in workgroup memory
// (xr_round), then rounded there for the product, instead of an rmsnorm
// or rmsnorm_round dispatch before it (MLA's q_a norm before q_b). The
// sum of squares is added in the order of the NT threads of the norm
// kernel it stands in for (word 30: 256 for rmsnorm_round, 64 for
// rmsnorm), so the results are those of the two dispatches bit for bit.
// Words as matmul's (0 K, 1 N, 3 T, 4 row bytes, In at 5 (the norm's
// input), Out at 10, 26 the byte where W's row 0 starts; no epilogue),
// 27 block size, 28 quantize_act's mode, 29 eps, 30 NT, the norm's
// weight at 31. When word 36 is set, the workgroups also write the
// norm's output (NO, at 40) for later readers, and when 37 is set its
// rounded copy as rmsnorm_round writes it (Y, packed; 38 block size, 39
// mode), each its share of whole 256-value blocks: the product's own
// weights are then F32, reading the row as it is. When word 45 (N2) is not 0, a second product of the row (W2, of
// W's type and row length) takes the workgroups after the first's and
// writes O2 at 46.
//!swap matvec_shape matvec_shape_wide
//!use common
//!dot
//!use matvec
//!reduce
//!use xr_round
//!twin W W2
//!twin X XR
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read_write> IN: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> NW: array<f32>;
@group(0) @binding(6) var<storage, read_write> NO: array<f32>;
@group(0) @binding(7) var<storage, read_write> Y: array<f32>;
@group(0) @binding(8) var<storage, read> W2: array<u32>;
@group(0) @binding(9) var<storage, read_write> O2: array<f32>;
// The matvec helpers' input, read here through their twins on XR; never
// bound.
@group(0) @binding(10) var<storage, read> X: array<vec4<f32>>;

var<workgroup> squares: array<f32, 256>;

@compute @workgroup_size(THREADS)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, l: Lane) {
    let g = group_index(wid, nwg);
    let K = pu(0u);
    // a decode step: one token; the workgroups past the first product's
    // take the second's rows
    let first_groups = wg_count(pu(1u));
    let second = g >= first_groups;
    var N = pu(1u);
    var g1 = g;
    if (second) {
        N = pu(45u);
        g1 = g - first_groups;
    }
    // this thread's matvec group's rows, and its place in the group
    let n0 = g1 * WG_ROWS + group_row(l.li);
    let li = group_lane(l.li);
    for (var i = l.li; i < K; i += THREADS) { XR[i >> 2u][i & 3u] = IN[at(5u, i, 0u, 0u, 0u)]; }
    workgroupBarrier();
    // thread j of the norm kernel's NT sums values j, j+NT, ...; then
    // halves fold onto the first NT/2, and so on
    let NT = pu(30u);
    for (var j = l.li; j < NT; j += THREADS) {
        var s = 0.0;
        for (var i = j; i < K; i += NT) { s += xr(i) * xr(i); }
        squares[j] = s;
    }
    workgroupBarrier();
    for (var w = NT / 2u; w > 0u; w >>= 1u) {
        for (var j = l.li; j < w; j += THREADS) { squares[j] += squares[j + w]; }
        workgroupBarrier();
    }
    let scale = 1.0 / sqrt(squares[0] / f32(K) + pf(29u));
    for (var i = l.li; i < K; i += THREADS) { XR[i >> 2u][i & 3u] = xr(i) * scale * NW[at(31u, i, 0u, 0u, 0u)]; }
    workgroupBarrier();
    // With keep, each workgroup writes its share of the norm's output
    // (and below of its rounded copy): whole blocks of 256, which no
    // block of the rounding straddles.
    let share = ((K + first_groups - 1u) / first_groups + 255u) & ~255u;
    let lo = min(K, g * share);
    let hi = min(K, lo + share);
    let keep = pu(36u) != 0u;
    if (keep) {
        for (var i = lo + l.li; i < hi; i += THREADS) { NO[at(40u, i, 0u, 0u, 0u)] = xr(i); }
    }
    round_xr(l.li, K, pu(27u), pu(28u));
    if (n0 < N) {
        if (second) { accumulate_W2_XR(0u, n0, N - n0, li, 0u); } else { accumulate_XR(0u, n0, N - n0, li, pu(26u)); }
    }
    let s = reduce_rows(l);
    if (li < ROWS && n0 + li < N) {
        if (second) { O2[at(46u, n0 + li, 0u, 0u, 0u)] = s; } else { O[at(10u, n0 + li, 0u, 0u, 0u)] = s; }
    }
    if (keep && pu(37u) != 0u) {
        // the product read the row unrounded (F32 weights): round it now
        workgroupBarrier();
        round_xr_range(l.li, lo, hi, pu(38u), pu(39u));
        for (var i = lo + l.li; i < hi; i += THREADS) { Y[i] = xr(i); }
    }
}
