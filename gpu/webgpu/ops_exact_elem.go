//go:build cgo || js

package webgpu

// In the exact mode (Options.Exact) the elementwise ops whose results
// depend on how a driver rounds (an RMSNorm's float64 sum, its division
// and square root; SiLU's exp and division) run kernels that compute them
// as the CPU backend does, bit for bit: NAME_exact, the kernel NAME built
// on exact helpers (wgsl's //!swap). The others (add, mul, scale) are one
// correctly rounded operation per value already.

// exactKernel is the kernel to dispatch for the op kernel name computes:
// its exact twin in the exact mode.
func (c *compiler) exactKernel(name string) string {
	if c.be.exact {
		return name + "_exact"
	}
	return name
}
