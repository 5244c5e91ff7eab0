//go:build !amd64 && !arm64

package quant

// interleavedSets are the kernel sets this CPU runs: none off amd64 and
// arm64.
func interleavedSets() (names []string, sets [][9]interleavedKernel) { return nil, nil }

// q4KSets are the interleaved Q4_K kernel sets this CPU runs: none off
// amd64 and arm64.
func q4KSets() (names []string, sets []q4KKernels) { return nil, nil }
