package quant

import (
	"fmt"
	"os"
)

// ISAEnv names the environment variable that holds the package's kernels
// to a lower instruction set than the CPU has, for benchmarks and tests
// only: EMBER_CPU=avx2 takes the AVX2 kernels on an AVX-512 CPU (as a CPU
// without AVX-512 would), EMBER_CPU=go the pure-Go kernels everywhere.
// Unset or empty, the CPU's own features decide. The kernels of every
// level compute the same bits; with pure Go, though, the CPU backend does
// not store Q4_0 matrices interleaved (too slow without assembly), and
// their plain layout sums in another order.
const ISAEnv = "EMBER_CPU"

// isaCap is the highest instruction-set level ISAEnv allows.
var isaCap = func() isaLevel {
	switch v := os.Getenv(ISAEnv); v {
	case "":
		return isaMax
	case "go":
		return isaGo
	case "avx2":
		return isaBase
	default:
		panic(fmt.Sprintf("quant: %s=%q: want avx2 or go", ISAEnv, v))
	}
}()

// isaLevel orders the instruction sets the kernels dispatch on.
type isaLevel int

const (
	isaGo   isaLevel = iota // no assembly
	isaBase                 // x86-64: AVX2, FMA, F16C; arm64: NEON (EMBER_CPU=avx2 there is NEON alone)
	isaMax                  // everything the CPU has
)
