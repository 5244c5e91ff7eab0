// What the exact attention kernels share (Options.Exact): they follow
// gpu/cpu's attention arithmetic step by step, so their outputs are the
// CPU backend's bit for bit. Scores and then weights of query head h of
// token t sit in scratch row h + H·(t - t0), ctx floats a row, for the
// tokens t0.. of one dispatch. Words: 0 DK, 1 DV, 2 H, 3 T, 4 KV heads,
// 5 scale, 6 K row stride, 7 V row stride, 8 V head stride, Q at 9, Out
// at 14, 19 ctx, 20 t0, 21 tokens of the dispatch, 22 zero (nofuse),
// 23 an F16 cache.
//!use common
//!use step
//!use exact_orders
const ZERO_WORD = 22u;

// Head, token and the third index of thread u of a grid of inner·H·tokens
// threads; ok is false past the dispatch's tokens.
struct HeadToken { h: u32, t: u32, i: u32, row: u32, ok: bool }

fn head_token(u: u32, inner: u32) -> HeadToken {
    let r = u / inner;
    let tl = r / pu(2u);
    return HeadToken(r % pu(2u), pu(20u) + tl, u % inner, r * pu(19u), tl < pu(21u));
}

// positions is how many cache rows token t attends to.
fn positions(t: u32) -> u32 { return S.pos + t + 1u; }

// lanes is the value sums' accumulators: ggml's single-token product
// keeps 64, tinyBLAS (a batch) 16.
fn lanes() -> u32 { return select(64u, 16u, pu(3u) > 1u); }
