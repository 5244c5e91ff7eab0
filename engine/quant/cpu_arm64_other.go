//go:build arm64 && !linux && !darwin

package quant

// arm64Features is false everywhere but Linux and macOS, which say what
// the CPU has; NEON alone runs everywhere.
func arm64Features() (dotprod, i8mm bool) { return false, false }
