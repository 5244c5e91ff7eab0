// The inner loop of matmul_tokens: matvec.wgsl's walk over the (block,
// part) pairs of WROWS weight rows, for TOKENS activation rows at once.
// Each weight part is loaded and decoded once (wload of dot_TYPE) and
// dotted with every token's part (wdot); every (row, token) pair is a row
// of its own to the reduction (ROWS of them), its terms added in matvec's
// order, so each token's sums are the single-token kernel's bit for bit.
// WROWS and WG are matvec_shape's ROWS and WG; accumulate_tokens loads
// its rows as w0 and w1, so WROWS is 2 by construction.
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

// accumulate_tokens adds thread li's share of rows row0 .. row0+WROWS-1
// (only `rows` of them exist; the rest repeat the last) times tokens t0 ..
// t0+TOKENS-1 of batch b (those from T on repeat the last token) to acc,
// pair (r, j) at j·WROWS + r. Row 0 starts at byte base of the binding.
fn accumulate_tokens(b: u32, t0: u32, T: u32, row0: u32, rows: u32, li: u32, base: u32) {
    let rbytes = pu(ROW_BYTES_WORD);
    let units = pu(P_K) / BLOCK * PARTS;
    var xo: array<u32, TOKENS>;
    for (var j = 0u; j < TOKENS; j++) { xo[j] = at(P_IN, 0u, b, min(t0 + j, T - 1u), 0u); }
    for (var u = li; u < units; u += WG) {
        let blk = u / PARTS;
        let part = u % PARTS;
        let w0 = wload(base + row0 * rbytes, blk, part);
        let w1 = wload(base + (row0 + min(1u, rows - 1u)) * rbytes, blk, part);
        for (var j = 0u; j < TOKENS; j++) {
            let x = xpart(xo[j], blk, part);
            acc[j * WROWS] += wdot(w0, x);
            acc[j * WROWS + 1u] += wdot(w1, x);
        }
    }
}
