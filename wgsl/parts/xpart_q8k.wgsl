// Activations of the k-quants' integer matvecs (dot_q4_k, dot_q6_k),
// packed by quantize_act's mode 5 (round_store): Q8_K's rounding of a row
// of K values at word xo as its integers, four a word, in words xo ..
// xo+K/4-1, and for super-block b twenty words from xo+K/4+20b: its f32
// scale, three unused, then the sums of its sixteen runs of 16 integers
// (llama.cpp's bsums), as i32.
//!use dot4_i8
// q8k_ints is the 16 integers from value v of the row at word xo (v a
// multiple of 16; four values a word).
fn q8k_ints(xo: u32, v: u32) -> vec4<u32> { return X[(xo >> 2u) + (v >> 4u)]; }
// q8k_head is the vec4 index of super-block blk's scale (its .x) and
// sums (the four vec4 after it).
fn q8k_head(xo: u32, blk: u32) -> u32 { return ((xo + pu(P_K) / 4u) >> 2u) + 5u * blk; }
fn q8k_d(h: u32) -> f32 { return bitcast<f32>(X[h].x); }
fn q8k_sum(h: u32, s: u32) -> i32 { return bitcast<i32>(X[h + 1u + s / 4u][s % 4u]); }
