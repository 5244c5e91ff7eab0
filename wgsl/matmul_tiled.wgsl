// Out[n, t] = Σ_k W[k, n] · In[k, t] for the many tokens of a prefill: a
// workgroup computes a tile of TM rows by TT tokens, so each weight is read
// and decoded once per TT tokens where the matvec (matmul.wgsl) reads it
// once per token. K is walked TK values at a time: the threads decode the
// weights' TM×TK slice into workgroup memory as floats (tile_TYPE) and
// copy the activations' TK×TT slice beside it, then each thread multiplies
// its 4×4 block of the tile out of workgroup memory while the next slice's
// loads are in flight. Sums run in f32 like the matvec's, in another
// order. Epilogue and words as in matmul.wgsl (B is 1): 0 K, 1 N, 3 T,
// 4 row bytes, In at 5, Out at 10, 15 epilogue, E at 16, F at 21, 26 the
// byte where W's row 0 starts.
//!use common
//!tile
//!use silu
const TM = 64u;
const TT = 64u;
const TK = 32u;
// QUADS is the 4-wide groups of rows (and of tokens) across a tile.
const QUADS = 16u;
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;

// The slices as [k][quad]: a thread's four rows (tokens) at one k are one
// vec4, so the inner loop reads two vectors for sixteen products. 16 KiB,
// WebGPU's default limit.
var<workgroup> ws: array<vec4<f32>, TK * QUADS>;
var<workgroup> xs: array<vec4<f32>, TK * QUADS>;

// fetch_x is eight activations of one token, k0 .. k0+7 (zero past K).
fn fetch_x(xo: u32, k0: u32) -> Vals {
    return Vals(vec4<f32>(x_at(xo, k0), x_at(xo, k0 + 1u), x_at(xo, k0 + 2u), x_at(xo, k0 + 3u)),
        vec4<f32>(x_at(xo, k0 + 4u), x_at(xo, k0 + 5u), x_at(xo, k0 + 6u), x_at(xo, k0 + 7u)));
}
fn x_at(xo: u32, k: u32) -> f32 {
    let K = pu(0u);
    return select(0.0, X[xo + min(k, K - 1u) * pu(6u)], k < K);
}

// store writes the sums of rows n0 .. n0+3 at token t where both exist,
// and the epilogue's result.
fn store(n0: u32, t: u32, s4: vec4<f32>) {
    let N = pu(1u);
    let kind = pu(15u);
    if (t >= pu(3u)) { return; }
    for (var i = 0u; i < 4u; i++) {
        let n = n0 + i;
        if (n >= N) { return; }
        let s = s4[i];
        O[at(10u, n, 0u, t, 0u)] = s;
        if (kind == 0u) { continue; }
        let e = E[at(16u, n, 0u, t, 0u)];
        var f = s + e;
        if (kind == 2u) { f = swiglu(e, s); }
        if (kind == 3u) { f = swiglu(s, e); }
        F[at(21u, n, 0u, t, 0u)] = f;
    }
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
    // Loading: thread li takes part lp (eight values) of the slice of row
    // lr, and eight k of token lr: a subgroup stores 32 neighbouring rows
    // (tokens), so no two threads' stores meet in one bank. Rows and tokens
    // past the edge repeat the last one; their sums are dropped.
    let lr = li % TM;
    let lp = li / TM;
    let rb = pu(26u) + min(n0 + lr, N - 1u) * pu(4u);
    let xo = at(5u, 0u, 0u, min(t0 + lr, T - 1u), 0u);
    let run = tile_at(lp);
    // Multiplying: thread li takes row quad mr and token quad mt.
    let mr = li % QUADS;
    let mt = li / QUADS;
    // Accumulators are named, not an array: an array indexed in a loop
    // may be kept in memory rather than registers.
    var a0 = vec4<f32>(0.0);
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    var rw = fetch(rb, 0u, lp);
    var rx = fetch_x(xo, 8u * lp);
    for (var k0 = 0u; k0 < K; k0 += TK) {
        let v = unpack(rw, rb, k0, lp);
        let q = lr / 4u;
        let c = lr % 4u;
        for (var i = 0u; i < 4u; i++) {
            ws[(run.x + i) * QUADS + q][c] = v.a[i];
            ws[(run.y + i) * QUADS + q][c] = v.b[i];
            xs[(8u * lp + i) * QUADS + q][c] = rx.a[i];
            xs[(8u * lp + 4u + i) * QUADS + q][c] = rx.b[i];
        }
        workgroupBarrier();
        if (k0 + TK < K) {
            rw = fetch(rb, k0 + TK, lp);
            rx = fetch_x(xo, k0 + TK + 8u * lp);
        }
        // A slice is summed on its own before it joins the total: long
        // runs of f32 sums drift further from the matvec's (and the CPU's)
        // than sums of sums.
        var p0 = vec4<f32>(0.0);
        var p1 = vec4<f32>(0.0);
        var p2 = vec4<f32>(0.0);
        var p3 = vec4<f32>(0.0);
        for (var kk = 0u; kk < TK; kk++) {
            let a = ws[kk * QUADS + mr];
            let b = xs[kk * QUADS + mt];
            p0 += a * b.x;
            p1 += a * b.y;
            p2 += a * b.z;
            p3 += a * b.w;
        }
        a0 += p0;
        a1 += p1;
        a2 += p2;
        a3 += p3;
        workgroupBarrier();
    }
    let t = t0 + 4u * mt;
    let n = n0 + 4u * mr;
    store(n, t, a0);
    store(n, t + 1u, a1);
    store(n, t + 2u, a2);
    store(n, t + 3u, a3);
}
