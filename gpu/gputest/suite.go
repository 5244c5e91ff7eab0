package gputest

import (
	"slices"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// WeightTypes are the weight types every backend's products must take.
var WeightTypes = []gguf.TensorType{
	gguf.F32, gguf.F16, gguf.BF16, gguf.Q8_0, gguf.Q4_0, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1,
	gguf.Q2_K, gguf.Q3_K, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K,
}

// activeWeightTypes are the weight types the running suite tests: all of
// WeightTypes, or a backend's subset while it is being written.
var activeWeightTypes = WeightTypes

// NewCases are the suite's cases for op uses added to the interface after
// a backend was written (issue 23: Add broadcasting a bias {N} over
// {N, T}). RunOpSuiteSubset with nil names leaves them out; a backend
// takes them by naming them, and a name leaves this list once every
// backend does.
var NewCases = []string{"AddBroadcast"}

// RunOpSuite runs every op of the kernel interface on backends made by
// newBackend (one per subtest, closed afterwards) against the references:
// every case, NewCases included.
func RunOpSuite(t *testing.T, newBackend func() gpu.Backend) {
	runOpSuite(t, newBackend, nil, WeightTypes, true)
}

// RunOpSuiteSubset runs the named cases of the suite (all but NewCases
// when names is nil) with products over the given weight types: for a
// backend that does not implement every op yet. What it leaves out is
// that backend's open work, not a pass.
func RunOpSuiteSubset(t *testing.T, newBackend func() gpu.Backend, names []string, types []gguf.TensorType) {
	runOpSuite(t, newBackend, names, types, false)
}

func runOpSuite(t *testing.T, newBackend func() gpu.Backend, names []string, types []gguf.TensorType, all bool) {
	activeWeightTypes = types
	defer func() { activeWeightTypes = WeightTypes }()
	cases := []struct {
		name string
		f    func(t *testing.T, be gpu.Backend)
	}{
		{"MatMul", testMatMul},
		{"MatMulBatched", testMatMulBatched},
		{"MatMulStrided", testMatMulStrided},
		{"MatMulID", testMatMulID},
		{"RowsOf8", testRowsOf8},
		{"RowsOf8Stacks", testRowsOf8Stacks},
		{"Embed", testEmbed},
		{"RMSNorm", testRMSNorm},
		{"Rope", testRope},
		{"KVStore", testKVStore},
		{"Attention", testAttention},
		{"Elementwise", testElementwise},
		{"AddBroadcast", testAddBroadcast},
		{"ExpertScale", testExpertScale},
		{"GateUpHalves", testGateUpHalves},
		{"Copy", testCopy},
		{"Route", testRoute},
		{"WeightedSum", testWeightedSum},
		{"ArgmaxTopK", testArgmaxTopK},
		{"TopK", testTopK},
		{"Graph", testGraph},
		{"Validation", testValidation},
	}
	for _, c := range cases {
		if names != nil && !slices.Contains(names, c.name) {
			continue
		}
		if names == nil && !all && slices.Contains(NewCases, c.name) {
			t.Logf("%s: not run (a newer case this backend has not named yet)", c.name)
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			be := newBackend()
			defer be.Close()
			c.f(t, be)
		})
	}
}

// weightK is the row length used for type wt: not a power of two, a
// multiple of the block size.
func weightKs(wt gguf.TensorType) []int {
	switch wt.BlockSize() {
	case 256:
		return []int{768}
	case 32:
		return []int{288, 96}
	}
	return []int{160, 67}
}
