// A workgroup's 64 accumulator chains, one a thread, summed as ggml sums
// its float dot's accumulators (matmul_exact_lanes, attention_exact_values):
// 16 lanes straight, or 64 as four 16-lane registers, 0+2 and 1+3 first.
// The lanes are read into vectors, not a private array (sum_lanes16v).
//!use exact_orders
var<workgroup> chains: array<f32, 64>;

fn lane4(i: u32) -> vec4<f32> { return vec4<f32>(chains[i], chains[i + 1u], chains[i + 2u], chains[i + 3u]); }

// lane64 is lanes l .. l+3 of the 64 reduced to 16.
fn lane64(l: u32) -> vec4<f32> { return (lane4(l) + lane4(32u + l)) + (lane4(16u + l) + lane4(48u + l)); }

// chains_total is the sum of chains i .. i+15, or of all 64 where wide.
fn chains_total(i: u32, wide: bool) -> f32 {
    if (wide) { return sum_lanes16v(lane64(0u), lane64(4u), lane64(8u), lane64(12u)); }
    return sum_lanes16v(lane4(i), lane4(i + 4u), lane4(i + 8u), lane4(i + 12u));
}
