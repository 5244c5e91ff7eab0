package quant

import (
	"os"
	"testing"
)

// TestArm64Features: under qemu-user the CPU named by QEMU_CPU (which the
// emulated program inherits in its environment) decides what the kernel
// reports, so make arm64's two runs can be held to it: "max" has dotprod
// and i8mm (the dotprod and i8mm kernels run, the interleaved Q4_0 tiles
// the i8mm set), a Cortex-A53 neither (the NEON kernels run). Elsewhere
// the features are only logged.
func TestArm64Features(t *testing.T) {
	t.Logf("dotprod %v, i8mm %v (%s=%q, QEMU_CPU=%q)", hasDotprod, hasI8MM, ISAEnv, os.Getenv(ISAEnv), os.Getenv("QEMU_CPU"))
	if isaCap < isaMax {
		if hasDotprod || hasI8MM {
			t.Errorf("%s=%s: dotprod %v, i8mm %v; want both off", ISAEnv, os.Getenv(ISAEnv), hasDotprod, hasI8MM)
		}
		return
	}
	switch os.Getenv("QEMU_CPU") {
	case "max":
		if !hasDotprod || !hasI8MM {
			t.Errorf("qemu -cpu max: dotprod %v, i8mm %v; want both", hasDotprod, hasI8MM)
		}
		if names, _ := interleavedSets(); names[len(names)-1] != "i8mm" {
			t.Errorf("qemu -cpu max: interleaved Q4_0 kernel sets %v; want i8mm last (the one products take)", names)
		}
	case "cortex-a53":
		if hasDotprod || hasI8MM {
			t.Errorf("qemu -cpu cortex-a53: dotprod %v, i8mm %v; want neither", hasDotprod, hasI8MM)
		}
	}
}
