// tile_mul.wgsl's tile product in integers for the quantized weight types
// of 32-value blocks or sub-blocks (Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q4_K,
// Q5_K, Q6_K; the loader, tile_TYPE, swaps it in): a block is 32 values,
// held in workgroup memory as 8-bit integers, the weights' as load_w gives them
// and the activations' as quantize_act packs them (mode 4, or 5 for the
// k-quants), with each row's and column's scales (load_dm, load_xdm). A
// thread's 4×4 block sums each of its sixteen (row, column) pairs over the
// block in integers (dot4I8Packed, four values an instruction) and adds
// d_w·d_x·Σ to its total, less the row's minimum times the column's block
// sum where the type has minimums (HAS_MIN): the integer matvecs'
// arithmetic.
// Where a block's two halves of 16 values have scales of their own
// (HALF_SCALES: Q6_K), each half's sum takes its own, the second held
// where the minimums are.
//!use common
//!use tile_shape
// The blocks as [word][quad]: word j of a thread's four rows (columns) is
// one vec4, so the inner loop reads two vectors for sixteen dot products.
// A word's rows sit QSTRIDE quads apart, one quad more than the tile's
// 16, so the words four threads of a row store together fall in
// different banks. A slice is SB blocks, and there are two of each: a
// slice is stored into one while the last is still read from the other,
// so a slice waits out one barrier, not two.
const QSTRIDE = 17u;
const SB = 2u;
const BLOCK_VECS = 8u * QSTRIDE;
const SLICE = SB * BLOCK_VECS;
var<workgroup> wi: array<vec4<u32>, 2u * SLICE>;
var<workgroup> xi: array<vec4<u32>, 2u * SLICE>;
// The rows' and columns' scales, and where the type has them, the minimum
// terms: the row's block minimum (with HALF_SCALES, the scale of the
// block's second half instead), the column's scale times its block's
// integer sum; [block of the slice][quad].
const SCALES = SB * (TM / 4u);
var<workgroup> wd: array<vec4<f32>, 2u * SCALES>;
var<workgroup> xd: array<vec4<f32>, 2u * SCALES>;
var<workgroup> wm: array<vec4<f32>, 2u * SCALES>;
var<workgroup> xm: array<vec4<f32>, 2u * SCALES>;

// Part is what a thread brings of one block: two words of weights and of
// activations.
struct Part { w: vec2<u32>, x: vec2<u32> }

// load_part is part lp of block blk; a block past the last (a slice's
// second when K has an odd count) repeats the last (store_scale gives it
// zero scales, so it adds nothing).
fn load_part(rb: u32, xo: u32, K: u32, blk: u32, lp: u32) -> Part {
    let b = min(blk, K / 32u - 1u);
    let xs = xo + 2u * lp + 8u * b;
    return Part(load_w(rb, b, lp), vec2<u32>(X[xs], X[xs + 1u]));
}

// store_part puts part lp of row (column) lr into block sb of the slice
// at ws.
fn store_part(ws: u32, sb: u32, lr: u32, lp: u32, p: Part) {
    let slots = w_slots(lp);
    let o = ws + sb * BLOCK_VECS + lr / 4u;
    let c = lr % 4u;
    wi[o + slots.x * QSTRIDE][c] = p.w.x;
    wi[o + slots.y * QSTRIDE][c] = p.w.y;
    xi[o + 2u * lp * QSTRIDE][c] = p.x.x;
    xi[o + (2u * lp + 1u) * QSTRIDE][c] = p.x.y;
}

// load_scale is the scales the thread of part lp brings of the slice
// from block b0: its row's and its column's of block b0 + lp % 2, of
// which store_scale keeps the row's (lp 0, 1) or the column's (lp 2, 3).
// A row's four threads loaded both blocks' row and column scales each;
// now each slice's scales are loaded twice, not four times, and held in
// four registers, not eight. Both are loaded and the choice is made at
// the store: a branch around the loads (one load a thread) made each
// side wait out its loads, and Q6_K lost (bench/JOURNAL.md).
const_assert SB == 2u;
fn load_scale(rb: u32, xo: u32, K: u32, b0: u32, lp: u32) -> vec4<f32> {
    let b = min(b0 + lp % 2u, K / 32u - 1u);
    return vec4<f32>(load_dm(rb, b), load_xdm(xo, K, b));
}

// store_scale puts the pair of load_scale's that part lp keeps for the
// slice from block b0 into its scales at ss: zero for a block past the
// last (one whose weights repeat the last), so it adds nothing. Chosen
// and tested here, long after the loads, not where their values arrive.
fn store_scale(ss: u32, lr: u32, lp: u32, K: u32, b0: u32, s4: vec4<f32>) {
    let s = select(select(s4.xy, s4.zw, lp >= 2u), vec2<f32>(0.0), b0 + lp % 2u >= K / 32u);
    let q = ss + (lp % 2u) * (TM / 4u) + lr / 4u;
    let c = lr % 4u;
    if (lp < 2u) {
        wd[q][c] = s.x;
        if (HAS_MIN || HALF_SCALES) { wm[q][c] = s.y; }
    } else {
        xd[q][c] = s.x;
        if (HAS_MIN) { xm[q][c] = s.y; }
    }
}

// tile_product is thread li's block of the tile. For the loads, thread li
// brings part li % 4 of row loaded(li) (at byte rb of W) and of that
// column (the packed row at word xo of X). Columns from live on repeat
// the last and their sums are dropped: a thread whose block lies past
// them multiplies nothing (a MoE expert's tile is often half full). Call
// it from uniform control flow.
fn tile_product(li: u32, rb: u32, xo: u32, xs0: u32, live: u32) -> Acc {
    let K = pu(P_K);
    let lr = loaded(li);
    let lp = li % 4u;
    let mb = block(li);
    var a0 = vec4<f32>(0.0);
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    // Each thread's parts of the first slice; those of the next are
    // loaded while the current one is multiplied.
    let blocks = K / 32u;
    var p0 = load_part(rb, xo, K, 0u, lp);
    var p1 = load_part(rb, xo, K, 1u, lp);
    var sc = load_scale(rb, xo, K, 0u, lp);
    for (var b0 = 0u; b0 < blocks; b0 += SB) {
        let half = (b0 / SB) % 2u;
        let ws = half * SLICE;
        let ss = half * SCALES;
        store_part(ws, 0u, lr, lp, p0);
        store_part(ws, 1u, lr, lp, p1);
        store_scale(ss, lr, lp, K, b0, sc);
        workgroupBarrier();
        if (b0 + SB < blocks) {
            p0 = load_part(rb, xo, K, b0 + SB, lp);
            p1 = load_part(rb, xo, K, b0 + SB + 1u, lp);
            sc = load_scale(rb, xo, K, b0 + SB, lp);
        }
        if (4u * mb.y < live) {
            for (var sb = 0u; sb < SB; sb++) {
                let h = block_halves(ws + sb * BLOCK_VECS, mb);
                let q = ss + sb * (TM / 4u);
                let rd = wd[q + mb.x];
                let cd = xd[q + mb.y];
                if (HALF_SCALES) {
                    let rh = wm[q + mb.x];
                    a0 += cd.x * (rd * vec4<f32>(h.lo.c0) + rh * vec4<f32>(h.hi.c0));
                    a1 += cd.y * (rd * vec4<f32>(h.lo.c1) + rh * vec4<f32>(h.hi.c1));
                    a2 += cd.z * (rd * vec4<f32>(h.lo.c2) + rh * vec4<f32>(h.hi.c2));
                    a3 += cd.w * (rd * vec4<f32>(h.lo.c3) + rh * vec4<f32>(h.hi.c3));
                } else {
                    a0 += rd * cd.x * vec4<f32>(h.lo.c0 + h.hi.c0);
                    a1 += rd * cd.y * vec4<f32>(h.lo.c1 + h.hi.c1);
                    a2 += rd * cd.z * vec4<f32>(h.lo.c2 + h.hi.c2);
                    a3 += rd * cd.w * vec4<f32>(h.lo.c3 + h.hi.c3);
                }
                if (HAS_MIN) {
                    let rm = wm[q + mb.x];
                    let cm = xm[q + mb.y];
                    a0 -= rm * cm.x;
                    a1 -= rm * cm.y;
                    a2 -= rm * cm.z;
                    a3 -= rm * cm.w;
                }
            }
        }
    }
    return Acc(a0, a1, a2, a3);
}

// Sums is a thread's sixteen (row, column) integer sums over one block,
// column by column.
struct Sums { c0: vec4<i32>, c1: vec4<i32>, c2: vec4<i32>, c3: vec4<i32> }

// Halves is a block's sums over its first four words (values 0..15) and
// its last four.
struct Halves { lo: Sums, hi: Sums }

// block_halves is the block at o of the slice: its eight words written
// out one by one, not a loop of eight, which the NVIDIA driver kept
// rolled, each step then waiting out its workgroup loads
// (bench/JOURNAL.md). Integer sums are exact in any order: lo + hi is the
// block's sum.
fn block_halves(o: u32, mb: vec2<u32>) -> Halves {
    let s0 = word_sums(o, 0u, mb);
    let s1 = word_sums(o, 1u, mb);
    let s2 = word_sums(o, 2u, mb);
    let s3 = word_sums(o, 3u, mb);
    let s4 = word_sums(o, 4u, mb);
    let s5 = word_sums(o, 5u, mb);
    let s6 = word_sums(o, 6u, mb);
    let s7 = word_sums(o, 7u, mb);
    return Halves(Sums(s0.c0 + s1.c0 + s2.c0 + s3.c0, s0.c1 + s1.c1 + s2.c1 + s3.c1,
                       s0.c2 + s1.c2 + s2.c2 + s3.c2, s0.c3 + s1.c3 + s2.c3 + s3.c3),
                  Sums(s4.c0 + s5.c0 + s6.c0 + s7.c0, s4.c1 + s5.c1 + s6.c1 + s7.c1,
                       s4.c2 + s5.c2 + s6.c2 + s7.c2, s4.c3 + s5.c3 + s6.c3 + s7.c3));
}

// word_sums is word j of the thread's four rows dotted with word j of its
// four columns.
fn word_sums(o: u32, j: u32, mb: vec2<u32>) -> Sums {
    let a = wi[o + j * QSTRIDE + mb.x];
    let b = xi[o + j * QSTRIDE + mb.y];
    return Sums(dot4x4(a, b.x), dot4x4(a, b.y), dot4x4(a, b.z), dot4x4(a, b.w));
}

// dot4x4 is four rows' words a dotted with one column's word b.
fn dot4x4(a: vec4<u32>, b: u32) -> vec4<i32> {
    return vec4<i32>(dot4I8Packed(a.x, b), dot4I8Packed(a.y, b), dot4I8Packed(a.z, b), dot4I8Packed(a.w, b));
}
