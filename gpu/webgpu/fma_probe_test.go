//go:build cgo && !js

package webgpu

import (
	"strings"
	"testing"
)

// TestFMAProbe runs the probe that decides whether the exact kernels take
// the device's fma(). It must run without error; on lavapipe, whose fma()
// is a multiply and an add (measured), it must answer no, or the exact
// kernels would round twice where the CPU rounds once. Where it answers
// yes (NVIDIA), the exact tests hold that path to the CPU's bits.
func TestFMAProbe(t *testing.T) {
	be, err := Open(Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	b := be.(*Backend)
	fused, err := b.probeFMA()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: fma() rounded once: %v", b.info.Device, fused)
	if strings.Contains(b.info.Device, "llvmpipe") && fused {
		t.Error("lavapipe's fma() passed the probe: the probe no longer tells fused from unfused")
	}
	var d strings.Builder
	b.Describe(&d)
	if !strings.Contains(d.String(), "fused multiply-add") {
		t.Errorf("Describe in exact mode does not say how fma is done:\n%s", d.String())
	}
}
