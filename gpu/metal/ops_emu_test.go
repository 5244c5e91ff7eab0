//go:build linux && (amd64 || arm64)

package metal

import (
	"strings"
	"testing"

	"github.com/emberllm/ember/gpu"
)

// emulated makes backends on the emulated device (emu_test.go): the MSL
// kernels compiled as C++ and run on the CPU.
func emulated(o Options) func() gpu.Backend {
	return func() gpu.Backend { return newBackend(newEmuDevice(), o) }
}

// TestEmulatedOps runs the op suite on the MSL kernels, each output held
// to its float64 reference and to the CPU backend's under the op's bound.
func TestEmulatedOps(t *testing.T) { runOps(t, emulated(Options{})) }

// TestEmulatedOpsNoSIMD runs the products again with the reductions of
// devices without SIMD-group functions (reduce_shared).
func TestEmulatedOpsNoSIMD(t *testing.T) { runOpsNoSIMD(t, emulated(Options{NoSIMD: true})) }

// TestEmulatedOpsSplit runs the ops that read weights with the buffers
// weights are wrapped in capped (splitOptions).
func TestEmulatedOpsSplit(t *testing.T) {
	runOpsSplit(t, func(o Options) func() gpu.Backend { return emulated(o) })
}

// TestEmulatedReadBandwidth runs the bandwidth yardstick's kernel (small:
// the emulated device is no measure of anything).
func TestEmulatedReadBandwidth(t *testing.T) {
	be := emulated(Options{})().(*Backend)
	defer be.Close()
	gbs, err := be.readBandwidth(1<<20, 16, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !(gbs > 0) {
		t.Errorf("read bandwidth %g GB/s", gbs)
	}
}

// Describe (what -v prints) names the device, its family and the features
// the kernels are built with, NoSIMD's too.
func TestEmulatedDescribe(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{}, "metal device: emulated on the CPU (none); SIMD-group reductions true, matrices true; max buffer 1024 MiB\n"},
		{Options{NoSIMD: true, MaxBuffer: 1 << 20}, "metal device: emulated on the CPU (none); SIMD-group reductions false, matrices false; max buffer 1 MiB\n"},
	} {
		be := emulated(c.o)().(*Backend)
		var b strings.Builder
		be.Describe(&b)
		be.Close()
		if b.String() != c.want {
			t.Errorf("%+v: Describe wrote %q, want %q", c.o, b.String(), c.want)
		}
	}
}
