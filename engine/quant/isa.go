package quant

import (
	"fmt"
	"io"
	"os"
)

// ISAEnv names the environment variable that holds the package's kernels
// to a lower instruction set than the CPU has, for benchmarks and tests
// only: EMBER_CPU=avx2 takes the AVX2 kernels on an AVX-512 CPU (as a CPU
// without AVX-512 would; on arm64, NEON without dotprod), EMBER_CPU=go the
// pure-Go kernels everywhere. Unset, empty or "max", the CPU's own
// features decide. The kernels of every level compute the same bits; with
// pure Go, though, the CPU backend does not store Q4_0 matrices
// interleaved (too slow without assembly), and their plain layout sums in
// another order.
const ISAEnv = "EMBER_CPU"

// ISAEnvErr is why ISAEnv's value was ignored, or nil. A package's
// variables are set before any main runs, so a bad value cannot stop the
// program there: the kernels take the CPU's best, a line on stderr says
// so, and a command that wants to refuse the value can check this.
var ISAEnvErr error

// isaCap is the highest instruction-set level ISAEnv allows.
var isaCap = isaFromEnv(os.Getenv(ISAEnv), os.Stderr)

// isaFromEnv is isaCap for ISAEnv's value v, warning on stderr (and
// setting ISAEnvErr) where v is not a level.
func isaFromEnv(v string, stderr io.Writer) isaLevel {
	l, err := parseISA(v)
	if err != nil {
		ISAEnvErr = err
		fmt.Fprintf(stderr, "ember: %v; ignored, using every instruction this CPU has\n", err)
	}
	return l
}

// parseISA reads ISAEnv's value; an unknown one is an error and isaMax.
func parseISA(v string) (isaLevel, error) {
	switch v {
	case "", "max":
		return isaMax, nil
	case "go":
		return isaGo, nil
	case "avx2":
		return isaBase, nil
	}
	return isaMax, fmt.Errorf("%s=%q is not an instruction-set level: want avx2, go or max", ISAEnv, v)
}

// isaLevel orders the instruction sets the kernels dispatch on.
type isaLevel int

const (
	isaGo   isaLevel = iota // no assembly
	isaBase                 // x86-64: AVX2, FMA, F16C; arm64: NEON (EMBER_CPU=avx2 there is NEON alone)
	isaMax                  // everything the CPU has
)
