//go:build linux && (amd64 || arm64)

package metal

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/emberllm/ember/msl"
)

// The feature probes a Mac's device must build (family.go) are kernels
// that compute what they should: run in the shim on small integers, whose
// sums and products are exact, a SIMD-group's sum and an 8×8 A·A + A.
func TestEmulatedProbes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 28))
	x := make([]float32, 64)
	for i := range x {
		x[i] = float32(rng.IntN(5) - 2)
	}

	sum := runProbe(t, probeReduce, x[:32])
	var want float32
	for _, v := range x[:32] {
		want += v
	}
	for i, v := range sum {
		if v != want {
			t.Fatalf("reduce probe: lane %d has %g, want the sum %g", i, v, want)
		}
	}

	got := runProbe(t, probeMatrix, x)
	for r := range 8 {
		for c := range 8 {
			w := x[r*8+c]
			for k := range 8 {
				w += x[r*8+k] * x[k*8+c]
			}
			if got[r*8+c] != w {
				t.Fatalf("matrix probe: [%d,%d] is %g, want %g", r, c, got[r*8+c], w)
			}
		}
	}
}

// runProbe compiles a probe as the emulated device compiles kernels and
// runs one threadgroup of 32 threads on a copy of x, bound at buffer 0.
func runProbe(t *testing.T, src string, x []float32) []float32 {
	t.Helper()
	params, err := msl.Signature(src, "probe")
	if err != nil {
		t.Fatal(err)
	}
	pipe, err := newEmuDevice().pipeline(src, &msl.Kernel{Name: "probe", Threads: 32, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	out := append([]float32(nil), x...)
	bufs := []uintptr{uintptr(unsafe.Pointer(&out[0]))}
	grid := []uint64{1, 1, 1}
	tg := []uint64{0}
	msg := make([]byte, 512)
	rc, _, _ := purego.SyscallN(pipe.(*emuPipe).fn, uintptr(unsafe.Pointer(&bufs[0])), uintptr(unsafe.Pointer(&grid[0])), 32,
		uintptr(unsafe.Pointer(&tg[0])), 0, uintptr(unsafe.Pointer(&msg[0])), uintptr(len(msg)))
	if int32(rc) != 0 {
		t.Fatalf("probe: %s", strings.TrimRight(string(msg), "\x00"))
	}
	return out
}
