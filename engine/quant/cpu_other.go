//go:build !amd64

package quant

// AVX2 reports whether this CPU runs the package's AVX2 kernels: never
// off amd64.
func AVX2() bool { return false }
