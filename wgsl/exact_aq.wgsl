// The exact products' 8-bit activation values as a block's code reads
// them (aq), each recovered from X where it is read: for the kernels of
// one thread an output, which share nothing. The blocks kernels swap in
// exact_aq_shared.
fn aq(a: Act, i: u32) -> i32 { return x_q(a, i); }

// aq4 is values i .. i+3 (i a multiple of 4).
fn aq4(a: Act, i: u32) -> vec4<i32> { return vec4<i32>(x_q(a, i), x_q(a, i + 1u), x_q(a, i + 2u), x_q(a, i + 3u)); }
