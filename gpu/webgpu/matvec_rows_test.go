//go:build cgo || js

package webgpu

import (
	"fmt"
	"strings"
	"testing"

	"github.com/emberllm/ember/wgsl"
)

// The grids of the matvecs count rows as matvec.wgsl's ROWS does.
func TestMatvecRowsMatchKernel(t *testing.T) {
	src, err := wgsl.Source("matmul", "q4_0", false, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("const ROWS = %du;", matvecRows); !strings.Contains(src, want) {
		t.Errorf("matvec.wgsl does not declare %q", want)
	}
	// The rounding products' workgroups are one 8-bit block of rows.
	for _, k := range []string{"matmul_round", "matmul_gate_up_round", "moe_gate_up_round"} {
		src, err := wgsl.Source(k, "q4_0", true, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{fmt.Sprintf("const ROWS = %du;", matvecRows), "const THREADS = WG * GROUPS;", "const GROUPS = 16u;", "const WG = 64u;"} {
			if !strings.Contains(src, want) {
				t.Errorf("%s.wgsl does not declare %q", k, want)
			}
		}
		if matvecRows*16 != roundingRows || 64*16 != roundingThreads {
			t.Errorf("matvec_shape_round.wgsl's 16 groups of %d rows by 64 threads are not roundingRows %d by roundingThreads %d", matvecRows, roundingRows, roundingThreads)
		}
	}
}

// The grids of the tiled products count tiles as matmul_tiled.wgsl does.
func TestTileMatchesKernel(t *testing.T) {
	src, err := wgsl.Source("matmul_tiled", "q4_k", false, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("const TM = %du;", tiledRows), fmt.Sprintf("const TT = %du;", tiledTokens)} {
		if !strings.Contains(src, want) {
			t.Errorf("matmul_tiled.wgsl does not declare %q", want)
		}
	}
}
