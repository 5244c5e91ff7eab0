// tile_mul.wgsl's tile product for the weight types whose matvecs take
// integer dot products (Q4_0, Q8_0, Q4_K; the loader, tile_TYPE, swaps it
// in): a slice of K is one block of 32 values (a Q4_K sub-block), held in
// workgroup memory as 8-bit integers, the weights' as load_w gives them
// and the activations' as quantize_act packs them (mode 4, or 5 for the
// k-quants), with each row's and column's scales (load_dm, load_xdm). A
// thread's 4×4 block sums each of its sixteen (row, column) pairs over the
// block in integers (dot4I8Packed, four values an instruction) and adds
// d_w·d_x·Σ to its total, less the row's minimum times the column's block
// sum where the type has minimums (HAS_MIN): the matvec's arithmetic.
//!use common
//!use tile_shape
// The slices as [word][quad]: word j of a thread's four rows (columns) is
// one vec4, so the inner loop reads two vectors for sixteen dot products.
// A word's rows sit QSTRIDE quads apart, one quad more than the tile's
// 16, so the words four threads of a row store together fall in
// different banks.
const QSTRIDE = 17u;
// Two of each: a block is stored into one while the last is still read
// from the other, so a block waits out one barrier, not two.
const SLICE = 8u * QSTRIDE;
var<workgroup> wi: array<vec4<u32>, 2u * SLICE>;
var<workgroup> xi: array<vec4<u32>, 2u * SLICE>;
// The rows' and columns' scales, and where the type has them, the minimum
// terms: the row's block minimum, the column's scale times its block's
// integer sum.
var<workgroup> wd: array<vec4<f32>, TM / 2u>;
var<workgroup> xd: array<vec4<f32>, TT / 2u>;
var<workgroup> wm: array<vec4<f32>, TM / 2u>;
var<workgroup> xm: array<vec4<f32>, TT / 2u>;

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
    var dw = load_dm(rb, 0u);
    var dx = load_xdm(xo, K, 0u);
    for (var blk = 0u; blk < blocks; blk++) {
        let half = blk % 2u;
        let ws = half * SLICE;
        let ss = half * (TM / 4u);
        let q = lr / 4u;
        let c = lr % 4u;
        wi[ws + slots.x * QSTRIDE + q][c] = w.x;
        wi[ws + slots.y * QSTRIDE + q][c] = w.y;
        xi[ws + 2u * lp * QSTRIDE + q][c] = x.x;
        xi[ws + (2u * lp + 1u) * QSTRIDE + q][c] = x.y;
        if (lp == 0u) {
            wd[ss + q][c] = dw.x;
            xd[ss + q][c] = dx.x;
            if (HAS_MIN) {
                wm[ss + q][c] = dw.y;
                xm[ss + q][c] = dx.y;
            }
        }
        workgroupBarrier();
        if (blk + 1u < blocks) {
            w = load_w(rb, blk + 1u, lp);
            x = vec2<u32>(X[xs + 8u * (blk + 1u)], X[xs + 8u * (blk + 1u) + 1u]);
            dw = load_dm(rb, blk + 1u);
            dx = load_xdm(xo, K, blk + 1u);
        }
        // The block's integer sums, column by column (named, and zeroed
        // here: a var declared in the loop may keep its last value).
        s0 = vec4<i32>(0);
        s1 = vec4<i32>(0);
        s2 = vec4<i32>(0);
        s3 = vec4<i32>(0);
        for (var j = 0u; j < 8u; j++) {
            let a = wi[ws + j * QSTRIDE + mb.x];
            let b = xi[ws + j * QSTRIDE + mb.y];
            s0 += dot4x4(a, b.x);
            s1 += dot4x4(a, b.y);
            s2 += dot4x4(a, b.z);
            s3 += dot4x4(a, b.w);
        }
        let rd = wd[ss + mb.x];
        let cd = xd[ss + mb.y];
        a0 += rd * cd.x * vec4<f32>(s0);
        a1 += rd * cd.y * vec4<f32>(s1);
        a2 += rd * cd.z * vec4<f32>(s2);
        a3 += rd * cd.w * vec4<f32>(s3);
        if (HAS_MIN) {
            let rm = wm[ss + mb.x];
            let cm = xm[ss + mb.y];
            a0 -= rm * cm.x;
            a1 -= rm * cm.y;
            a2 -= rm * cm.z;
            a3 -= rm * cm.w;
        }
    }
    return Acc(a0, a1, a2, a3);
}

// dot4x4 is four rows' words a dotted with one column's word b.
fn dot4x4(a: vec4<u32>, b: u32) -> vec4<i32> {
    return vec4<i32>(dot4I8Packed(a.x, b), dot4I8Packed(a.y, b), dot4I8Packed(a.z, b), dot4I8Packed(a.w, b));
}
