package metal

import (
	"slices"
	"testing"

	"github.com/emberllm/ember/msl"
)

// The family -v prints and the features the kernels are built with, for
// the families devices answer to (the paravirtual GPU's as llama.cpp's
// and other projects' CI logs print them on GitHub's macOS runners).
func TestFamilyAndFeatures(t *testing.T) {
	span := func(lo, hi int64) []int64 {
		var fs []int64
		for f := lo; f <= hi; f++ {
			fs = append(fs, f)
		}
		return fs
	}
	common := span(familyCommon1, familyCommon3)
	for _, c := range []struct {
		device   string
		families []int64
		matrix   bool // whether the matrix probe builds
		name     string
		want     msl.Features
		probed   bool
	}{
		{"M1", append(append(span(familyApple1, familyApple7), familyMac2, familyMetal3), common...), true, "Apple7, Metal 3", msl.Features{SIMD: true, Matrix: true}, true},
		{"M3", append(append(span(familyApple1, 1009), familyMac2, familyMetal3), common...), true, "Apple9, Metal 3", msl.Features{SIMD: true, Matrix: true}, true},
		{"Apple7 without matrices", append(span(familyApple1, familyApple7), common...), false, "Apple7", msl.Features{SIMD: true}, true},
		{"paravirtual, Apple5", append(span(familyApple1, 1005), common...), true, "Apple5", msl.Features{}, false},
		{"paravirtual, Common3", common, true, "Common3", msl.Features{}, false},
		{"AMD in an Intel Mac", append([]int64{familyMac2, familyMetal3}, common...), true, "Mac2, Metal 3", msl.Features{}, false},
		{"none", nil, true, "no Apple, Mac2 or common GPU family", msl.Features{}, false},
	} {
		supports := func(f int64) bool { return slices.Contains(c.families, f) }
		probed := false
		builds := func(src string) bool {
			probed = true
			return src == probeReduce || c.matrix
		}
		if got := familyName(supports); got != c.name {
			t.Errorf("%s: family %q, want %q", c.device, got, c.name)
		}
		if got := deviceFeatures(supports, builds); got != c.want || probed != c.probed {
			t.Errorf("%s: features %+v (probed %v), want %+v (probed %v)", c.device, got, probed, c.want, c.probed)
		}
	}
}
