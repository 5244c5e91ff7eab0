//go:build cgo || js

package webgpu

import (
	"fmt"
	"strconv"
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
	// The rounding products' workgroups are one 8-bit block of rows, in
	// groups of the matvecs' WG threads (a row's sums depend on WG, not on
	// ROWS), as many threads as roundingThreads.
	wg := constOf(t, src, "WG")
	for _, k := range []string{"matmul_round", "matmul_gate_up_round", "moe_gate_up_round"} {
		src, err := wgsl.Source(k, "q4_0", true, "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(src, "const THREADS = WG * GROUPS;") {
			t.Errorf("%s.wgsl does not declare THREADS = WG * GROUPS", k)
		}
		rows, groups, kwg := constOf(t, src, "ROWS"), constOf(t, src, "GROUPS"), constOf(t, src, "WG")
		if kwg != wg || rows*groups != roundingRows || kwg*groups != roundingThreads {
			t.Errorf("%s.wgsl: %d groups of %d rows by %d threads, want %d rows by %d threads in groups of the matvecs' %d",
				k, groups, rows, kwg, roundingRows, roundingThreads, wg)
		}
	}
}

// constOf is the value of `const NAME = Vu;` in src.
func constOf(t *testing.T, src, name string) int {
	t.Helper()
	_, rest, ok := strings.Cut(src, "const "+name+" = ")
	if !ok {
		t.Fatalf("no const %s", name)
	}
	v, _, _ := strings.Cut(rest, "u;")
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("const %s = %q: %v", name, v, err)
	}
	return n
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

// The grids of the batch products count rows and tokens as their shapes
// (tokens_shape.wgsl, tokens_shape_wide.wgsl, tokens_shape_tall.wgsl)
// declare them, and a row's sums take the matvecs' WG threads.
func TestTokensShapeMatchesKernel(t *testing.T) {
	mv, err := wgsl.Source("matmul", "q4_0", true, "")
	if err != nil {
		t.Fatal(err)
	}
	// N rows: the 8B's 4096 fill tallGroups' grid at 16 tokens, 1024 do
	// not (and take eight tokens of two rows); rows of K = 768 values
	// (GLM's q_b) are shorter than tallK.
	for _, k := range []struct {
		kernel  string
		T, K, N int
	}{{"matmul_tokens", batchTokens, 4096, 4096}, {"matmul_tokens_wide", wideTokens, 4096, 4096},
		{"matmul_tokens_wide", tallTokens, 4096, 1024}, {"matmul_tokens_wide", tallTokens, 768, 8192},
		{"matmul_tokens_tall", tallTokens, 4096, 4096}} {
		src, err := wgsl.Source(k.kernel, "q4_0", true, "")
		if err != nil {
			t.Fatal(err)
		}
		got, per, wr := tokensKernel(k.T, k.K, k.N, 1)
		if got != k.kernel {
			t.Errorf("a step of %d tokens over %d rows of %d takes %s, want %s", k.T, k.N, k.K, got, k.kernel)
		}
		if rows, tokens := constOf(t, src, "WROWS"), constOf(t, src, "TOKENS"); rows != wr || tokens != per {
			t.Errorf("%s.wgsl: %d rows by %d tokens, the grid counts %d by %d", k.kernel, rows, tokens, wr, per)
		}
		if wg, want := constOf(t, src, "WG"), constOf(t, mv, "WG"); wg != want {
			t.Errorf("%s.wgsl: %d threads a row, matmul.wgsl %d", k.kernel, wg, want)
		}
	}
}
