// tile_mul.wgsl's tile product for the weight types of 32-value blocks
// whose matvecs take integer dot products (Q4_0, Q8_0; the loader,
// tile_TYPE, swaps it in): a slice of K is one block, held in workgroup
// memory as 8-bit integers, the weights' made signed (tile_i8: load_w)
// and the activations' as quantize_act packs them (mode 4), with each
// row's and column's block scale. A thread's 4×4 block sums each of its
// sixteen (row, column) pairs over the block in integers (dot4I8Packed,
// four values an instruction) and adds d_w·d_x·Σ to its total, the
// matvec's arithmetic.
//!use common
//!use tile_shape
// Rows of a slice are 8 words, kept 9 apart so that the rows a subgroup
// reads together fall in different banks.
const SLICE_WORDS = 9u;
var<workgroup> wi: array<u32, TM * SLICE_WORDS>;
var<workgroup> wd: array<f32, TM>;
var<workgroup> xi: array<u32, TT * SLICE_WORDS>;
var<workgroup> xd: array<f32, TT>;

// tile_product is thread li's block of the tile. For the loads, thread li
// brings part li % 4 of row loaded(li) (at byte rb of W) and of that
// column (the packed row at word xo of X). Call it from uniform control
// flow.
fn tile_product(li: u32, rb: u32, xo: u32, xs0: u32) -> Acc {
    let K = pu(P_K);
    let lr = loaded(li);
    let lp = li % 4u;
    let mb = block(li);
    var a0 = vec4<f32>(0.0);
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    var s0: vec4<i32>;
    var s1: vec4<i32>;
    var s2: vec4<i32>;
    var s3: vec4<i32>;
    // Each thread's words of the first block; those of the next are
    // loaded while the current one is multiplied.
    let slots = w_slots(lp);
    let blocks = K / 32u;
    let xs = xo + 2u * lp;
    var w = load_w(rb, 0u, lp);
    var x = vec2<u32>(X[xs], X[xs + 1u]);
    var d = vec2<f32>(load_d(rb, 0u), bitcast<f32>(X[xo + K / 4u]));
    for (var blk = 0u; blk < blocks; blk++) {
        wi[lr * SLICE_WORDS + slots.x] = w.x;
        wi[lr * SLICE_WORDS + slots.y] = w.y;
        xi[lr * SLICE_WORDS + 2u * lp] = x.x;
        xi[lr * SLICE_WORDS + 2u * lp + 1u] = x.y;
        if (lp == 0u) {
            wd[lr] = d.x;
            xd[lr] = d.y;
        }
        workgroupBarrier();
        if (blk + 1u < blocks) {
            w = load_w(rb, blk + 1u, lp);
            x = vec2<u32>(X[xs + 8u * (blk + 1u)], X[xs + 8u * (blk + 1u) + 1u]);
            d = vec2<f32>(load_d(rb, blk + 1u), bitcast<f32>(X[xo + K / 4u + 2u * (blk + 1u)]));
        }
        // The block's integer sums, column by column (named, and zeroed
        // here: a var declared in the loop may keep its last value).
        s0 = vec4<i32>(0);
        s1 = vec4<i32>(0);
        s2 = vec4<i32>(0);
        s3 = vec4<i32>(0);
        for (var j = 0u; j < 8u; j++) {
            let r0 = 4u * mb.x * SLICE_WORDS + j;
            let c0 = 4u * mb.y * SLICE_WORDS + j;
            let a = vec4<u32>(wi[r0], wi[r0 + SLICE_WORDS], wi[r0 + 2u * SLICE_WORDS], wi[r0 + 3u * SLICE_WORDS]);
            s0 += dot4x4(a, xi[c0]);
            s1 += dot4x4(a, xi[c0 + SLICE_WORDS]);
            s2 += dot4x4(a, xi[c0 + 2u * SLICE_WORDS]);
            s3 += dot4x4(a, xi[c0 + 3u * SLICE_WORDS]);
        }
        let dw = vec4<f32>(wd[4u * mb.x], wd[4u * mb.x + 1u], wd[4u * mb.x + 2u], wd[4u * mb.x + 3u]);
        a0 += dw * xd[4u * mb.y] * vec4<f32>(s0);
        a1 += dw * xd[4u * mb.y + 1u] * vec4<f32>(s1);
        a2 += dw * xd[4u * mb.y + 2u] * vec4<f32>(s2);
        a3 += dw * xd[4u * mb.y + 3u] * vec4<f32>(s3);
        workgroupBarrier();
    }
    return Acc(a0, a1, a2, a3);
}

// dot4x4 is four rows' words a dotted with one column's word b.
fn dot4x4(a: vec4<u32>, b: u32) -> vec4<i32> {
    return vec4<i32>(dot4I8Packed(a.x, b), dot4I8Packed(a.y, b), dot4I8Packed(a.z, b), dot4I8Packed(a.w, b));
}
