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
	// tiledFrom is the fewest tokens that take the tiled kernel. A tile
	// costs its 64 columns of arithmetic however few tokens fill it, the
	// matvec a read of the weights per token: on a GPU whose tiles reach
	// 10 to 20 TFLOP/s and whose matvecs read 1 TB/s the two meet between
	// 13 and 25 tokens (an estimate). Devices of less arithmetic per byte
	// (integrated GPUs, software) gain from tiles earlier.
	tiledFrom = 16
)

// tiled reports whether a product of T tokens takes the tiled kernel. A
// decode batch's tokens keep the matvec, which sums each token as a step
// of that token alone does (gpu.Graph.Independent).
func (c *compiler) tiled(T int) bool { return T >= tiledFrom && !c.g.Independent }

// tileGroups is the number of tiled workgroups covering n rows of T tokens
// in each of B batches.
func tileGroups(n, B, T int) int {
	return (n + tiledRows - 1) / tiledRows * ((T + tiledTokens - 1) / tiledTokens) * B
}
