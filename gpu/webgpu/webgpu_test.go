//go:build cgo || js

package webgpu_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/gputest"
	"github.com/emberllm/ember/gpu/webgpu"
)

// open returns a backend on this machine's adapter (lavapipe in CI, where
// .ci/deps.sh installs mesa-vulkan-drivers). No adapter is a failure, not
// a skip: the tests must run where CI runs them.
func open(t testing.TB) gpu.Backend {
	t.Helper()
	be, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return be
}

// weightTypes are the weight types of the WebGPU products: those of the
// issue, without BF16, Q2_K and Q3_K, which the CPU backend also takes.
var weightTypes = []gguf.TensorType{gguf.F32, gguf.F16, gguf.Q8_0, gguf.Q4_0, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K}

func TestOps(t *testing.T) {
	gputest.RunOpSuiteSubset(t, func() gpu.Backend { return open(t) }, nil, weightTypes)
}

// TestOpsNoSubgroups runs the kernels that reduce with subgroup operations
// where the adapter has them on their workgroup-memory path: the matvecs,
// the products of fewer tokens than tiles take (the tiled products have no
// subgroup operations: TestOps covers them).
func TestOpsNoSubgroups(t *testing.T) {
	newBackend := func() gpu.Backend {
		be, err := webgpu.Open(webgpu.Options{NoSubgroups: true})
		if err != nil {
			t.Fatal(err)
		}
		return be
	}
	gputest.Suite{Names: []string{"MatMul", "MatMulBatched", "MatMulStrided", "MatMulID"}, Types: weightTypes, MaxTokens: webgpu.TiledFrom - 1}.Run(t, newBackend)
}

// openB opens the backend of the benchmarks;
// EMBER_BENCH_NO_ROUNDING_PRODUCTS=1 keeps products that round their
// output for the next (matmul_round) apart, to time them against it.
func openB(b *testing.B) gpu.Backend {
	be, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if os.Getenv("EMBER_BENCH_NO_ROUNDING_PRODUCTS") == "1" {
		webgpu.RoundingProducts(be, false)
	}
	return be
}

// TestTopKLimit: a K past what the kernel gathers in workgroup memory is
// refused when the graph compiles, naming the limit, not computed wrongly.
func TestTopKLimit(t *testing.T) {
	be := open(t)
	defer be.Close()
	const V, K = 2000, gputest.TopKMax + 1
	in, _ := be.Alloc("in", gguf.F32, gpu.Shape4(V, 1))
	ids, _ := be.Alloc("ids", gguf.I32, gpu.Shape4(K, 1))
	vals, _ := be.Alloc("vals", gguf.F32, gpu.Shape4(K, 1))
	g := gpu.NewGraph("topk", 1)
	g.Do(&gpu.TopK{In: g.Bind("in", in), IDs: g.Bind("ids", ids), Vals: g.Bind("vals", vals), K: K})
	_, err := be.Compile(g)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprint(gputest.TopKMax)) {
		t.Fatalf("top %d: %v, want an error naming the limit %d", K, err, gputest.TopKMax)
	}
}

// TestOpsGridSpill runs the op suite with every grid of more than 7
// workgroups spread over x and y, as grids of more than 65535 are (a big
// vocabulary's output head, a decode batch's products), which the suite's
// small shapes never reach otherwise: a kernel that numbered its
// workgroups by x alone fails it (matmul.wgsl so changed: 64 failures
// here, none in TestOps), as would one whose surplus workgroups (past the
// count, in the last row) wrote where the others do.
func TestOpsGridSpill(t *testing.T) {
	gputest.RunOpSuiteSubset(t, func() gpu.Backend {
		be := open(t)
		webgpu.GridLimit(be, 7)
		return be
	}, nil, weightTypes)
}
