//go:build cgo || js

package webgpu

// Prefill products take matmul_tiled.wgsl: a workgroup multiplies a tile of
// tiledRows weight rows by tiledTokens tokens, reading and decoding each
// weight once per tile of tokens instead of once per token. Decode (one
// token) and short steps keep the matvec, which reads the weights at full
// bandwidth for a single token.
const (
	// tiledRows and tiledTokens are TM and TT of matmul_tiled.wgsl.
	tiledRows   = 64
	tiledTokens = 64
	// tiledFrom is the fewest tokens that take the tiled kernel: from
	// about here a tile's unused token columns cost less than reading the
	// weights once per token.
	tiledFrom = 8
)

// tiled reports whether a product of B batches of T tokens takes the
// tiled kernel; batched weights (B > 1) keep the matvec.
func tiled(B, T int) bool { return B == 1 && T >= tiledFrom }

// tileGroups is the number of tiled workgroups covering n rows of T tokens.
func tileGroups(n, T int) int {
	return (n + tiledRows - 1) / tiledRows * ((T + tiledTokens - 1) / tiledTokens)
}
