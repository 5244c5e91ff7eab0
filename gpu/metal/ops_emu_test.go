//go:build linux && (amd64 || arm64)

package metal

import (
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/gputest"
)

// emulated makes backends on the emulated device (emu_test.go): the MSL
// kernels compiled as C++ and run on the CPU.
func emulated(o Options) func() gpu.Backend {
	return func() gpu.Backend { return newBackend(newEmuDevice(true), o) }
}

// weightTypes are the weight types of the Metal products: WebGPU's.
var weightTypes = []gguf.TensorType{gguf.F32, gguf.F16, gguf.Q8_0, gguf.Q4_0, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K}

// TestEmulatedOps runs the op suite on the MSL kernels, each output held
// to its float64 reference and to the CPU backend's under the op's bound.
func TestEmulatedOps(t *testing.T) {
	gputest.RunOpSuiteSubset(t, emulated(Options{}), nil, weightTypes)
}

// TestEmulatedOpsNoSIMD runs the products again with the reductions of
// devices without SIMD-group functions (reduce_shared).
func TestEmulatedOpsNoSIMD(t *testing.T) {
	gputest.RunOpSuiteSubset(t, emulated(Options{NoSIMD: true}), []string{"MatMul", "MatMulBatched", "MatMulStrided", "MatMulID"}, weightTypes)
}

// TestEmulatedOpsSplit runs the ops that read weights with the buffers
// weights are wrapped in capped at 4 KiB past the two pages a wrapped range
// may add (32 KiB for the experts, whose unit is a whole expert): weights
// past it are wrapped in several segments, each bound on its own, as
// weights past the device's largest buffer are.
func TestEmulatedOpsSplit(t *testing.T) {
	gputest.RunOpSuiteSubset(t, emulated(Options{MaxBuffer: 2*pageSize + 4<<10}), []string{"MatMul", "Embed", "RowsOf8"}, weightTypes)
	gputest.RunOpSuiteSubset(t, emulated(Options{MaxBuffer: 2*pageSize + 32<<10}), []string{"MatMulID"}, weightTypes)
}
