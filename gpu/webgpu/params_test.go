//go:build cgo && !js

package webgpu

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/wgsl"
)

func TestConstName(t *testing.T) {
	for _, c := range []struct {
		path []string
		want string
	}{
		{[]string{"RowBytes"}, "P_ROW_BYTES"},
		{[]string{"NQ"}, "P_NQ"},
		{[]string{"IDs"}, "P_IDS"},
		{[]string{"R0"}, "P_R0"},
		{[]string{"RowBytesU"}, "P_ROW_BYTES_U"},
		{[]string{"K", "Width"}, "P_K_WIDTH"},
		{[]string{"RoundShared", "Mode"}, "P_ROUND_SHARED_MODE"},
	} {
		if got := constName(c.path...); got != c.want {
			t.Errorf("constName(%q) = %s, want %s", c.path, got, c.want)
		}
	}
}

// A struct of every field kind, embedded and nested structs included,
// packs into the words its constants name.
func TestParamWords(t *testing.T) {
	type inner struct{ A, B int }
	type sample struct {
		attentionParams
		X     loc
		Shape [4]int
		On    bool
		F     float32
		Side  inner
	}
	v := sample{
		attentionParams: attentionParams{DK: 3, DV: 4, H: 5, T: 6, HKV: 7, Scale: 0.5, KeyStride: 8, ValueStride: 9, ValueHead: 10},
		X:               loc{off: 11, stride: [4]uint32{12, 13, 14, 15}},
		Shape:           [4]int{16, 17, 18, 19},
		On:              true,
		F:               -2.25,
		Side:            inner{20, 21},
	}
	words, err := paramWordsOf(v)
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{3, 4, 5, 6, 7, math.Float32bits(0.5), 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 1, math.Float32bits(-2.25), 20, 21}
	if !slices.Equal(words, want) {
		t.Fatalf("words %v, want %v", words, want)
	}
	consts, err := paramConsts(reflect.TypeOf(v))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"const P_DK = 0u;", "const P_SCALE = 5u;", "const P_VALUE_HEAD = 8u;", "const P_X = 9u;", "const P_SHAPE = 14u;",
		"const P_ON = 18u;", "const P_F = 19u;", "const P_SIDE_A = 20u;", "const P_SIDE_B = 21u;"} {
		if !strings.Contains(consts, c) {
			t.Errorf("constants lack %q:\n%s", c, consts)
		}
	}
	// A field of a type the block cannot hold is refused, naming it.
	if _, err := paramWordsOf(struct{ S string }{}); err == nil || !strings.Contains(err.Error(), "S") {
		t.Errorf("a string field: %v, want an error naming it", err)
	}
}

// Every kernel has its parameter struct, and every kernel builds, with the
// constants of that struct, for each weight or cache type it takes, with
// and without subgroups: a word a kernel reads that its struct does not
// name fails here, for kernels no other test dispatches too.
func TestKernelsBuild(t *testing.T) {
	kernels := wgsl.Kernels()
	for name := range kernelParams {
		if !slices.Contains(kernels, name) {
			t.Errorf("kernelParams names %s, which is no kernel in wgsl/", name)
		}
	}
	be, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	b := be.(*Backend)
	// A kernel takes no type, or a cache's (with the head size it holds in
	// workgroup memory, or without), or a weight's: the first of a class
	// that builds says which, and then every one of it must.
	classes := [][]string{{""}, {"cache_f32", "cache_f16"}, {"cache_f32@128", "cache_f16@128", "cache_f16@640"}, {"f32", "f16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q4_k", "q5_k", "q6_k"}}
	build := func(name, dec string, sub bool) error {
		src, err := kernelSourceText(name, dec, sub)
		if err != nil {
			return err
		}
		mod, err := b.dev.TryCreateShaderModule(&wgpu.ShaderModuleDescriptor{Label: name + "/" + dec, WGSLSource: &wgpu.ShaderSourceWGSL{Code: src}})
		if err != nil {
			return err
		}
		mod.Release()
		return nil
	}
	for _, name := range kernels {
		if _, ok := kernelParams[name]; !ok {
			t.Errorf("kernel %s has no parameter struct in kernelParams", name)
			continue
		}
		var class []string
		for _, c := range classes {
			if build(name, c[0], false) == nil {
				class = c
				break
			}
		}
		if class == nil {
			t.Errorf("kernel %s builds for no type: %v", name, build(name, "f32", false))
			continue
		}
		for _, dec := range class {
			for _, sub := range []bool{false, b.subgroups} {
				if err := build(name, dec, sub); err != nil {
					t.Errorf("%s/%s (subgroups %v): %v", name, dec, sub, err)
				}
			}
		}
	}
}
