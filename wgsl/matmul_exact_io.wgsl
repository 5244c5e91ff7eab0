// The bindings of the exact products of one weight (matmul_exact and its
// split kernels, which share its words): weights, the input, the output,
// and the epilogue's other operand and result (exact_epilogue); word 21
// holds 0 (nofuse).
@group(0) @binding(2) var<storage, read> W: array<u32>;
@group(0) @binding(3) var<storage, read> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> E: array<f32>;
@group(0) @binding(6) var<storage, read_write> F: array<f32>;

const ZERO_WORD = 21u;
