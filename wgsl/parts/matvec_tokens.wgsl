// The inner loop of matmul_tokens: matvec.wgsl's walk over the (block,
// part) pairs of WROWS weight rows, for TOKENS activation rows at once
// (tokens_shape). Each weight part is loaded and decoded once (wload of
// dot_TYPE) and dotted with every token's part (wdot); every (row, token)
// pair is a row of its own to the reduction (ROWS of them), its terms
// added in matvec's order, so each token's sums are the single-token
// kernel's bit for bit. WG is matvec_shape's. accumulate_tokens is written
// out for its two or four rows (w0 .. w3) and up to eight tokens (a0 ..
// a7: the rows' sums of a token): with the tokens in a loop over private arrays
// the driver kept those arrays in memory, which cost 31% of the batch
// products at 16 sequences. Every token of the workgroup is computed, a
// token past the batch's last repeating it (its sums are dropped): behind
// a branch each, the tokens' loads waited for the terms before them.
//!use tokens_shape
const_assert TOKENS == 4u || TOKENS == 8u;
const_assert WROWS == 2u || WROWS == 4u;
const ROWS = WROWS * TOKENS;
const WG = 32u;
const GROUPS = 1u;
const THREADS = WG * GROUPS;

fn group_row(li: u32) -> u32 { return (li / WG) * ROWS; }
fn group_lane(li: u32) -> u32 { return li % WG; }
const ROW_BYTES_WORD = P_ROW_BYTES;
var<private> acc: array<f32, ROWS>;

// token_terms is the weight rows' terms of their part against the token
// whose packed row starts at x (rows past WROWS zero).
fn token_terms(w0: WPart, w1: WPart, w2: WPart, w3: WPart, x: u32, blk: u32, part: u32) -> vec4<f32> {
    let p = xpart(x, blk, part);
    var t = vec4<f32>(wdot(w0, p), wdot(w1, p), 0.0, 0.0);
    if (WROWS > 2u) {
        t.z = wdot(w2, p);
        t.w = wdot(w3, p);
    }
    return t;
}

// TokenRows is where each of a workgroup's TOKENS activation rows starts
// (element offsets of the packed rows; x4 .. x7 unused at four tokens).
struct TokenRows { x0: u32, x1: u32, x2: u32, x3: u32, x4: u32, x5: u32, x6: u32, x7: u32 }

// accumulate_tokens sets acc to thread li's share of rows row0 ..
// row0+WROWS-1 (only `rows` of them exist; those past it repeat the last) times
// tokens t0 .. t0+TOKENS-1 of batch b, pair (r, j) at j·WROWS + r. Row 0
// starts at byte base of the binding.
fn accumulate_tokens(b: u32, t0: u32, T: u32, row0: u32, rows: u32, li: u32, base: u32) {
    let x = TokenRows(at(P_IN, 0u, b, t0, 0u), at(P_IN, 0u, b, min(t0 + 1u, T - 1u), 0u),
        at(P_IN, 0u, b, min(t0 + 2u, T - 1u), 0u), at(P_IN, 0u, b, min(t0 + 3u, T - 1u), 0u),
        at(P_IN, 0u, b, min(t0 + 4u, T - 1u), 0u), at(P_IN, 0u, b, min(t0 + 5u, T - 1u), 0u),
        at(P_IN, 0u, b, min(t0 + 6u, T - 1u), 0u), at(P_IN, 0u, b, min(t0 + 7u, T - 1u), 0u));
    accumulate_rows(x, TOKENS, row0, rows, li, base);
}

// accumulate_rows is accumulate_tokens for the activation rows at x (the
// pairs of an expert's group, matmul_id_tokens: any rows), of which the
// first `live` are computed (the rest are dropped). live is the
// workgroup's alike, and TOKENS in matmul_tokens: a batch's tokens are
// computed whole (behind a branch each, a token's loads waited for the
// terms before them), while an expert's run of pairs is often one or two.
fn accumulate_rows(x: TokenRows, live: u32, row0: u32, rows: u32, li: u32, base: u32) {
    let rbytes = pu(ROW_BYTES_WORD);
    let units = pu(P_K) / BLOCK * PARTS;
    let x0 = x.x0;
    let x1 = x.x1;
    let x2 = x.x2;
    let x3 = x.x3;
    let x4 = x.x4;
    let x5 = x.x5;
    let x6 = x.x6;
    let x7 = x.x7;
    let r0 = base + row0 * rbytes;
    let r1 = base + (row0 + min(1u, rows - 1u)) * rbytes;
    let r2 = base + (row0 + min(2u, rows - 1u)) * rbytes;
    let r3 = base + (row0 + min(3u, rows - 1u)) * rbytes;
    var a0 = vec4<f32>(0.0);
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    var a4 = vec4<f32>(0.0);
    var a5 = vec4<f32>(0.0);
    var a6 = vec4<f32>(0.0);
    var a7 = vec4<f32>(0.0);
    for (var u = li; u < units; u += WG) {
        let blk = u / PARTS;
        let part = u % PARTS;
        let w0 = wload(r0, blk, part);
        let w1 = wload(r1, blk, part);
        var w2 = w0;
        var w3 = w1;
        if (WROWS > 2u) {
            w2 = wload(r2, blk, part);
            w3 = wload(r3, blk, part);
        }
        a0 += token_terms(w0, w1, w2, w3, x0, blk, part);
        if (live > 1u) { a1 += token_terms(w0, w1, w2, w3, x1, blk, part); }
        if (live > 2u) { a2 += token_terms(w0, w1, w2, w3, x2, blk, part); }
        if (live > 3u) { a3 += token_terms(w0, w1, w2, w3, x3, blk, part); }
        if (TOKENS > 4u && live > 4u) {
            a4 += token_terms(w0, w1, w2, w3, x4, blk, part);
            if (live > 5u) { a5 += token_terms(w0, w1, w2, w3, x5, blk, part); }
            if (live > 6u) { a6 += token_terms(w0, w1, w2, w3, x6, blk, part); }
            if (live > 7u) { a7 += token_terms(w0, w1, w2, w3, x7, blk, part); }
        }
    }
    acc[min(0u * WROWS + 0u, ROWS - 1u)] = a0.x;
    acc[min(0u * WROWS + 1u, ROWS - 1u)] = a0.y;
    if (WROWS > 2u) { acc[min(0u * WROWS + 2u, ROWS - 1u)] = a0.z; }
    if (WROWS > 2u) { acc[min(0u * WROWS + 3u, ROWS - 1u)] = a0.w; }
    acc[min(1u * WROWS + 0u, ROWS - 1u)] = a1.x;
    acc[min(1u * WROWS + 1u, ROWS - 1u)] = a1.y;
    if (WROWS > 2u) { acc[min(1u * WROWS + 2u, ROWS - 1u)] = a1.z; }
    if (WROWS > 2u) { acc[min(1u * WROWS + 3u, ROWS - 1u)] = a1.w; }
    acc[min(2u * WROWS + 0u, ROWS - 1u)] = a2.x;
    acc[min(2u * WROWS + 1u, ROWS - 1u)] = a2.y;
    if (WROWS > 2u) { acc[min(2u * WROWS + 2u, ROWS - 1u)] = a2.z; }
    if (WROWS > 2u) { acc[min(2u * WROWS + 3u, ROWS - 1u)] = a2.w; }
    acc[min(3u * WROWS + 0u, ROWS - 1u)] = a3.x;
    acc[min(3u * WROWS + 1u, ROWS - 1u)] = a3.y;
    if (WROWS > 2u) { acc[min(3u * WROWS + 2u, ROWS - 1u)] = a3.z; }
    if (WROWS > 2u) { acc[min(3u * WROWS + 3u, ROWS - 1u)] = a3.w; }
    if (TOKENS > 4u) {
        acc[min(4u * WROWS + 0u, ROWS - 1u)] = a4.x;
        acc[min(4u * WROWS + 1u, ROWS - 1u)] = a4.y;
        if (WROWS > 2u) { acc[min(4u * WROWS + 2u, ROWS - 1u)] = a4.z; }
        if (WROWS > 2u) { acc[min(4u * WROWS + 3u, ROWS - 1u)] = a4.w; }
        acc[min(5u * WROWS + 0u, ROWS - 1u)] = a5.x;
        acc[min(5u * WROWS + 1u, ROWS - 1u)] = a5.y;
        if (WROWS > 2u) { acc[min(5u * WROWS + 2u, ROWS - 1u)] = a5.z; }
        if (WROWS > 2u) { acc[min(5u * WROWS + 3u, ROWS - 1u)] = a5.w; }
        acc[min(6u * WROWS + 0u, ROWS - 1u)] = a6.x;
        acc[min(6u * WROWS + 1u, ROWS - 1u)] = a6.y;
        if (WROWS > 2u) { acc[min(6u * WROWS + 2u, ROWS - 1u)] = a6.z; }
        if (WROWS > 2u) { acc[min(6u * WROWS + 3u, ROWS - 1u)] = a6.w; }
        acc[min(7u * WROWS + 0u, ROWS - 1u)] = a7.x;
        acc[min(7u * WROWS + 1u, ROWS - 1u)] = a7.y;
        if (WROWS > 2u) { acc[min(7u * WROWS + 2u, ROWS - 1u)] = a7.z; }
        if (WROWS > 2u) { acc[min(7u * WROWS + 3u, ROWS - 1u)] = a7.w; }
    }
}
