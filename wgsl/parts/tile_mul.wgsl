// The multiplication of a tiled product (matmul_tiled), apart from what
// its kernel reads and writes around it: a workgroup of 256 threads
// multiplies TM weight rows by TT activation columns over all of K. K is
// walked TK values at a time: the threads decode the weights' TM×TK slice
// into workgroup memory as floats (tile_TYPE) and copy the activations'
// TK×TT slice beside it, then each thread multiplies its 4×4 block of the
// tile out of workgroup memory while the next slice's loads are in
// flight. Sums run in f32 like the matvec's, in another order.
//!use common
//!use tile_shape
// QUADS is the 4-wide groups of rows (and of columns) across a tile.
const QUADS = 16u;

// The slices as [k][quad]: a thread's four rows (columns) at one k are one
// vec4, so the inner loop reads two vectors for sixteen products. 16 KiB,
// WebGPU's default limit.
var<workgroup> ws: array<vec4<f32>, TK * QUADS>;
var<workgroup> xs: array<vec4<f32>, TK * QUADS>;

// fetch_x is eight activations of a column from element xo, k0 .. k0+7,
// K values at element stride xs0 (zero past K).
fn fetch_x(xo: u32, xs0: u32, k0: u32) -> Vals {
    return Vals(vec4<f32>(x_at(xo, xs0, k0), x_at(xo, xs0, k0 + 1u), x_at(xo, xs0, k0 + 2u), x_at(xo, xs0, k0 + 3u)),
        vec4<f32>(x_at(xo, xs0, k0 + 4u), x_at(xo, xs0, k0 + 5u), x_at(xo, xs0, k0 + 6u), x_at(xo, xs0, k0 + 7u)));
}
fn x_at(xo: u32, xs0: u32, k: u32) -> f32 {
    let K = pu(P_K);
    return select(0.0, bitcast<f32>(X[xo + min(k, K - 1u) * xs0]), k < K);
}

// tile_product is thread li's block of the tile. For the loads, thread li
// brings the row loaded(li) (at byte rb of W) and that column (at element
// xo of X, elements xs0 apart). A thread whose columns all lie from live
// on (repeats of the last, dropped) multiplies nothing. Call it from
// uniform control flow.
fn tile_product(li: u32, rb: u32, xo: u32, xs0: u32, live: u32) -> Acc {
    let K = pu(P_K);
    let lr = loaded(li);
    let lp = li % 4u;
    let run = tile_at(lp);
    let q = lr / 4u;
    let c = lr % 4u;
    let mb = block(li);
    let mr = mb.x;
    let mt = mb.y;
    // Accumulators are named, not an array: an array indexed in a loop
    // may be kept in memory rather than registers.
    var a0 = vec4<f32>(0.0);
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    var rw = fetch(rb, 0u, lp);
    var rx = fetch_x(xo, xs0, 8u * lp);
    for (var k0 = 0u; k0 < K; k0 += TK) {
        let v = unpack(rw, rb, k0, lp);
        for (var i = 0u; i < 4u; i++) {
            ws[(run.x + i) * QUADS + q][c] = v.a[i];
            ws[(run.y + i) * QUADS + q][c] = v.b[i];
            xs[(8u * lp + i) * QUADS + q][c] = rx.a[i];
            xs[(8u * lp + 4u + i) * QUADS + q][c] = rx.b[i];
        }
        workgroupBarrier();
        if (k0 + TK < K) {
            rw = fetch(rb, k0 + TK, lp);
            rx = fetch_x(xo, xs0, k0 + TK + 8u * lp);
        }
        // A slice is summed on its own before it joins the total: long
        // runs of f32 sums drift further from the matvec's (and the CPU's)
        // than sums of sums.
        var p = Acc(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
        if (4u * mt < live) { p = slice_sums(mr, mt); }
        a0 += p.c0;
        a1 += p.c1;
        a2 += p.c2;
        a3 += p.c3;
        workgroupBarrier();
    }
    return Acc(a0, a1, a2, a3);
}

// slice_sums is the thread's block over the slice's TK steps, in k order,
// written out: the NVIDIA driver kept a loop of 32 steps rolled, each step
// waiting out its workgroup loads (bench/JOURNAL.md).
const_assert TK == 32u;
fn slice_sums(mr: u32, mt: u32) -> Acc {
    var p = Acc(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    p = k_steps4(p, 0u, mr, mt);
    p = k_steps4(p, 4u, mr, mt);
    p = k_steps4(p, 8u, mr, mt);
    p = k_steps4(p, 12u, mr, mt);
    p = k_steps4(p, 16u, mr, mt);
    p = k_steps4(p, 20u, mr, mt);
    p = k_steps4(p, 24u, mr, mt);
    p = k_steps4(p, 28u, mr, mt);
    return p;
}

// k_steps4 adds steps k .. k+3 to the thread's sums p, one after another.
fn k_steps4(p: Acc, k: u32, mr: u32, mt: u32) -> Acc {
    return k_step(k_step(k_step(k_step(p, k, mr, mt), k + 1u, mr, mt), k + 2u, mr, mt), k + 3u, mr, mt);
}

// k_step adds step k of the slice: the thread's four rows at k times its
// four columns at k.
fn k_step(p: Acc, k: u32, mr: u32, mt: u32) -> Acc {
    let a = ws[k * QUADS + mr];
    let b = xs[k * QUADS + mt];
    return Acc(p.c0 + a * b.x, p.c1 + a * b.y, p.c2 + a * b.z, p.c3 + a * b.w);
}
