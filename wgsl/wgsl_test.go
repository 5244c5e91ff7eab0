package wgsl

import (
	"strings"
	"testing"
)

// FusedFMA finds fma_exact's switch: were the line reworded, the fused
// path would silently never be taken.
func TestFusedFMA(t *testing.T) {
	src, err := Source("fma_exact", "", false)
	if err != nil {
		t.Fatal(err)
	}
	fused := FusedFMA(src)
	if fused == src || !strings.Contains(fused, "const FMA_FUSED = true;") {
		t.Fatal("FusedFMA did not switch fma_exact.wgsl to the device's fma")
	}
}
