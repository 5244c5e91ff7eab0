//go:build darwin

package metal

import (
	"os"
	"strconv"
	"testing"

	"github.com/emberllm/ember/gpu"
)

// The tests on Metal itself: the Linux tests' suite on the Mac's device
// (a hosted macOS runner's paravirtual GPU in CI: .github/workflows/metal.yml).

// onMetal makes backends on the system's Metal device; no device is a
// failure, not a skip: these tests run where there is one.
func onMetal(t *testing.T, o Options) func() gpu.Backend {
	return func() gpu.Backend {
		be, err := Open(o)
		if err != nil {
			t.Fatal(err)
		}
		return be
	}
}

// TestMetalDevice says what the tests run on. Where EMBER_METAL_MATRIX is
// set (0 or 1), the device must have been given SIMD-group matrices or not
// as it says: the CI workflow holds a hosted runner's paravirtual GPU,
// which has none, to the kernels without.
func TestMetalDevice(t *testing.T) {
	be := onMetal(t, Options{})().(*Backend)
	defer be.Close()
	f := be.features()
	t.Logf("%s: %s, SIMD-group reductions %v, matrices %v, max buffer %d MiB", be.dev.name(), be.dev.family(), f.SIMD, f.Matrix, be.dev.maxBuffer()>>20)
	if env := os.Getenv("EMBER_METAL_MATRIX"); env != "" {
		want, err := strconv.ParseBool(env)
		if err != nil {
			t.Fatalf("EMBER_METAL_MATRIX=%q: %v", env, err)
		}
		if f.Matrix != want {
			t.Errorf("SIMD-group matrices %v, EMBER_METAL_MATRIX=%s", f.Matrix, env)
		}
	}
}

// TestMetalKernelsCompile builds every kernel for every type it takes,
// with and without SIMD-group functions where the device has them: the
// Metal compiler's word on the MSL the Linux tests compile as C++.
func TestMetalKernelsCompile(t *testing.T) {
	for _, simd := range []bool{false, true} {
		be := onMetal(t, Options{NoSIMD: !simd})().(*Backend)
		if f := be.features(); simd && !f.SIMD && !f.Matrix {
			be.Close()
			t.Log("this device has no SIMD-group functions")
			continue
		}
		for name, decodes := range kernelDecoders {
			for _, dec := range decodes {
				if _, err := be.kernel(name, dec); err != nil {
					t.Errorf("%s/%s (%+v): %v", name, dec, be.features(), err)
				}
			}
		}
		be.Close()
	}
}

func TestMetalOps(t *testing.T)       { runOps(t, onMetal(t, Options{})) }
func TestMetalOpsNoSIMD(t *testing.T) { runOpsNoSIMD(t, onMetal(t, Options{NoSIMD: true})) }
func TestMetalOpsSplit(t *testing.T) {
	runOpsSplit(t, func(o Options) func() gpu.Backend { return onMetal(t, o) })
}

// TestMetalModelParity holds whole models on Metal to the CPU backend.
func TestMetalModelParity(t *testing.T) { parityModels(t, onMetal(t, Options{})) }

// TestMetalBatchDecode: batch steps on Metal give each sequence its lone
// decoding's logits bit for bit.
func TestMetalBatchDecode(t *testing.T) { batchModels(t, onMetal(t, Options{})) }
