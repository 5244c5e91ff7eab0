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

// maxTokens, when positive, leaves out the products' cases of more tokens
// (Suite.MaxTokens).
var maxTokens int

// RunOpSuite runs every op of the kernel interface on backends made by
// newBackend (one per subtest, closed afterwards) against the references.
func RunOpSuite(t *testing.T, newBackend func() gpu.Backend) {
	Suite{}.Run(t, newBackend)
}

// RunOpSuiteSubset runs the named cases of the suite (all when names is
// nil) with products over the given weight types: for a backend that does
// not implement every op yet. What it leaves out is that backend's open
// work, not a pass.
func RunOpSuiteSubset(t *testing.T, newBackend func() gpu.Backend, names []string, types []gguf.TensorType) {
	Suite{Names: names, Types: types}.Run(t, newBackend)
}

// Suite is a selection of the op suite's cases.
type Suite struct {
	Names []string          // the cases to run; all when nil
	Types []gguf.TensorType // the products' weight types; WeightTypes when nil
	// MaxTokens, when positive, leaves out the products of more tokens:
	// for running a path again that only short products take (a
	// backend's kernels without subgroup operations, where its products
	// of many tokens take a kernel that has none either).
	MaxTokens int
}

// Run runs the selection on backends made by newBackend.
func (s Suite) Run(t *testing.T, newBackend func() gpu.Backend) {
	activeWeightTypes, maxTokens = WeightTypes, s.MaxTokens
	if s.Types != nil {
		activeWeightTypes = s.Types
	}
	defer func() { activeWeightTypes, maxTokens = WeightTypes, 0 }()
	names := s.Names
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
		{"Places", testPlaces},
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
		t.Run(c.name, func(t *testing.T) {
			be := newBackend()
			defer be.Close()
			c.f(t, be)
		})
	}
}

// tokenCounts is ts less the counts above maxTokens.
func tokenCounts(ts ...int) []int {
	if maxTokens <= 0 {
		return ts
	}
	var out []int
	for _, t := range ts {
		if t <= maxTokens {
			out = append(out, t)
		}
	}
	return out
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
