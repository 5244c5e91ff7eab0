// Out[n, t] = Σ_k W[k, n] · In[k, t] for the many tokens of a prefill: a
// workgroup computes a tile of TM rows by TT tokens, so each weight is read
// and decoded once per TT tokens where the matvec (matmul.wgsl) reads it
// once per token. K is walked TK values at a time: the threads decode the
// weights' TM×TK slice into workgroup memory as floats and copy the
// activations' TK×TT slice beside it, then each thread multiplies its 4×4
// block of the tile out of workgroup memory. Sums run in f32 like the
// matvec's, in another order. Epilogue and words as in matmul.wgsl (B is
// 1): 0 K, 1 N, 3 T, 4 row bytes, In at 5, Out at 10, 15 epilogue, E at
// 16, F at 21, 26 the byte where W's row 0 starts.
//!use common
//!decode
//!use silu
const TM = 64u;
const TT = 64u;
const TK = 16u;
// QUADS is the 4-wide groups of rows (and of tokens) across a tile.
const QUADS = 16u;
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;

// The slices as [k][quad]: a thread's four rows (tokens) at one k are one
// vec4, so the inner loop reads two vectors for sixteen products.
var<workgroup> ws: array<vec4<f32>, TK * QUADS>;
var<workgroup> xs: array<vec4<f32>, TK * QUADS>;

// tile_weights is value k of the four rows starting at bytes rb.
fn tile_weights(rb: vec4<u32>, k: u32) -> vec4<f32> {
    return vec4<f32>(dq(rb.x, k), dq(rb.y, k), dq(rb.z, k), dq(rb.w, k));
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let g = group_index(wid, nwg);
    let K = pu(0u);
    let N = pu(1u);
    let T = pu(3u);
    let tiles = (N + TM - 1u) / TM;
    let n0 = (g % tiles) * TM;
    let t0 = (g / tiles) * TT;
    // The grid may hold a few workgroups past the last tile (it spills into
    // y): the whole workgroup leaves, so barriers stay uniform.
    if (t0 >= T) { return; }
    // Loading: thread li fills slice column lk of quad lq, neighbouring
    // threads taking neighbouring k of the same rows (neighbouring bytes).
    // Rows and tokens past the edge repeat the last one; their sums are
    // dropped.
    let lk = li % TK;
    let lq = li / TK;
    let rows = vec4<u32>(min(vec4<u32>(n0 + 4u * lq) + vec4<u32>(0u, 1u, 2u, 3u), vec4<u32>(N - 1u)));
    let toks = vec4<u32>(min(vec4<u32>(t0 + 4u * lq) + vec4<u32>(0u, 1u, 2u, 3u), vec4<u32>(T - 1u)));
    let rb = vec4<u32>(pu(26u)) + rows * pu(4u);
    // Multiplying: thread li takes row quad mr and token quad mt.
    let mr = li % QUADS;
    let mt = li / QUADS;
    var acc: array<vec4<f32>, 4>;
    // A slice is summed on its own before it joins the total: long runs of
    // f32 sums drift further from the matvec's (and the CPU's) than sums
    // of sums. (Declared out here and zeroed by hand: one declared in the
    // loop kept its sums from round to round under wgpu-native.)
    var part: array<vec4<f32>, 4>;
    for (var k0 = 0u; k0 < K; k0 += TK) {
        let k = k0 + lk;
        var w = vec4<f32>(0.0);
        var x = vec4<f32>(0.0);
        if (k < K) {
            w = tile_weights(rb, k);
            for (var i = 0u; i < 4u; i++) { x[i] = X[at(5u, k, 0u, toks[i], 0u)]; }
        }
        ws[lk * QUADS + lq] = w;
        xs[lk * QUADS + lq] = x;
        workgroupBarrier();
        for (var kk = 0u; kk < TK; kk++) {
            let a = ws[kk * QUADS + mr];
            let b = xs[kk * QUADS + mt];
            part[0] += a * b.x;
            part[1] += a * b.y;
            part[2] += a * b.z;
            part[3] += a * b.w;
        }
        for (var j = 0u; j < 4u; j++) {
            acc[j] += part[j];
            part[j] = vec4<f32>(0.0);
        }
        workgroupBarrier();
    }
    let kind = pu(15u);
    for (var j = 0u; j < 4u; j++) {
        let t = t0 + 4u * mt + j;
        for (var i = 0u; i < 4u; i++) {
            let n = n0 + 4u * mr + i;
            if (t >= T || n >= N) { continue; }
            let s = acc[j][i];
            O[at(10u, n, 0u, t, 0u)] = s;
            if (kind == 0u) { continue; }
            let e = E[at(16u, n, 0u, t, 0u)];
            var f = s + e;
            if (kind == 2u) { f = swiglu(e, s); }
            if (kind == 3u) { f = swiglu(s, e); }
            F[at(21u, n, 0u, t, 0u)] = f;
        }
    }
}
