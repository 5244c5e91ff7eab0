// The inner loop of matmul_tokens: matvec.wgsl's walk over the (block,
// part) pairs of WROWS weight rows, for TOKENS activation rows at once.
// Each weight part is loaded and decoded once (wload of dot_TYPE) and
// dotted with every token's part (wdot); every (row, token) pair is a row
// of its own to the reduction (ROWS of them), its terms added in matvec's
// order, so each token's sums are the single-token kernel's bit for bit.
// WROWS and WG are matvec_shape's ROWS and WG. accumulate_tokens is
// written out for its two rows (w0, w1) and four tokens (a0 .. a3: the two
// rows' sums of a token): with the tokens in a loop over private arrays
// the driver kept those arrays in memory, which cost 31% of the batch
// products at 16 sequences.
const WROWS = 2u;
const TOKENS = 4u;
const ROWS = WROWS * TOKENS;
const WG = 64u;
const GROUPS = 1u;
const THREADS = WG * GROUPS;

fn group_row(li: u32) -> u32 { return (li / WG) * ROWS; }
fn group_lane(li: u32) -> u32 { return li % WG; }
const ROW_BYTES_WORD = P_ROW_BYTES;
var<private> acc: array<f32, ROWS>;

// accumulate_tokens sets acc to thread li's share of rows row0, row0+1
// (only `rows` of them exist; the second repeats the first past it) times
// tokens t0 .. t0+3 of batch b, pair (r, j) at j·WROWS + r; a token from
// T on is skipped (a uniform branch: its sums are never stored). Row 0
// starts at byte base of the binding.
fn accumulate_tokens(b: u32, t0: u32, T: u32, row0: u32, rows: u32, li: u32, base: u32) {
    let rbytes = pu(ROW_BYTES_WORD);
    let units = pu(P_K) / BLOCK * PARTS;
    let live = T - t0;
    let x0 = at(P_IN, 0u, b, t0, 0u);
    let x1 = at(P_IN, 0u, b, min(t0 + 1u, T - 1u), 0u);
    let x2 = at(P_IN, 0u, b, min(t0 + 2u, T - 1u), 0u);
    let x3 = at(P_IN, 0u, b, min(t0 + 3u, T - 1u), 0u);
    let r0 = base + row0 * rbytes;
    let r1 = base + (row0 + min(1u, rows - 1u)) * rbytes;
    var a0 = vec2<f32>(0.0);
    var a1 = vec2<f32>(0.0);
    var a2 = vec2<f32>(0.0);
    var a3 = vec2<f32>(0.0);
    for (var u = li; u < units; u += WG) {
        let blk = u / PARTS;
        let part = u % PARTS;
        let w0 = wload(r0, blk, part);
        let w1 = wload(r1, blk, part);
        let p0 = xpart(x0, blk, part);
        a0 += vec2<f32>(wdot(w0, p0), wdot(w1, p0));
        if (live > 1u) {
            let p1 = xpart(x1, blk, part);
            a1 += vec2<f32>(wdot(w0, p1), wdot(w1, p1));
        }
        if (live > 2u) {
            let p2 = xpart(x2, blk, part);
            a2 += vec2<f32>(wdot(w0, p2), wdot(w1, p2));
        }
        if (live > 3u) {
            let p3 = xpart(x3, blk, part);
            a3 += vec2<f32>(wdot(w0, p3), wdot(w1, p3));
        }
    }
    acc[0] = a0.x;
    acc[1] = a0.y;
    acc[2] = a1.x;
    acc[3] = a1.y;
    acc[4] = a2.x;
    acc[5] = a2.y;
    acc[6] = a3.x;
    acc[7] = a3.y;
}
