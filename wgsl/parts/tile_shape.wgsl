// The tiled product's shape, which its float (tile_mul) and integer
// (tile_mul_i8) multiplications share: a workgroup of 256 threads, a tile
// of TM weight rows by TT activation columns, K walked TK values a slice.
const TM = 64u;
const TT = 64u;
const TK = 32u;

// Acc is a thread's 4×4 block: column j's four rows in c[j].
struct Acc { c0: vec4<f32>, c1: vec4<f32>, c2: vec4<f32>, c3: vec4<f32> }

// loaded is the row (and column) of the tile whose loads thread li
// brings: four threads a row, one part (eight values) of its slice each,
// and eight k of the column. A subgroup's load then touches the lines of
// a few rows (columns) rather than one line per thread; its stores meet
// four to a bank.
fn loaded(li: u32) -> u32 { return li / 4u; }

// block is thread li's 4×4 block of the tile: its row quad (x) and column
// quad (y). The 32 threads of a subgroup take 8 row quads by 4 column
// quads, so each step of the inner loop reads 128 bytes of weights and 64
// of activations from workgroup memory for them (16 by 2 quads would
// read 256 and 32).
fn block(li: u32) -> vec2<u32> {
    let w = li / 32u;
    return vec2<u32>(li % 8u + 8u * (w % 2u), (li / 8u) % 4u + 4u * (w / 2u));
}

