package msl

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/emberllm/ember/wgsl"
)

// decoders are the values a kernel's weight or cache type may take.
var decoders = []string{"f32", "f16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q4_k", "q5_k", "q6_k", "cache_f32", "cache_f16"}

// The top of the folder holds kernels, each the twin of a WGSL kernel of
// the same name, and parts/ their pieces: each kernel assembles (for some
// type) into a source with one entry point named after it and a
// threadgroup size, no name is in both places, and every piece is used by
// some kernel.
func TestLayout(t *testing.T) {
	used := map[string]bool{}
	twins := wgsl.Kernels()
	for _, k := range Kernels() {
		if !slices.Contains(twins, k) {
			t.Errorf("%s.metal has no WGSL twin wgsl/%s.wgsl", k, k)
		}
		if _, err := files.ReadFile("parts/" + k + ".metal"); err == nil {
			t.Errorf("%s.metal is both a kernel and a piece", k)
		}
		built := false
		for _, dec := range append([]string{""}, decoders...) {
			for _, f := range []Features{{}, {SIMD: true, Matrix: true}} {
				kn, err := Load(k, dec, f)
				if err != nil {
					continue
				}
				built = true
				if n := strings.Count(kn.Source, "kernel void "); n != 1 {
					t.Errorf("%s (%q) has %d entry points, want 1", k, dec, n)
				}
				for _, f := range kn.Files {
					used[f] = true
				}
			}
		}
		if !built {
			t.Errorf("%s.metal assembles for no type", k)
		}
	}
	parts, _ := fs.Glob(files, "parts/*.metal")
	for _, p := range parts {
		if !used[p] {
			t.Errorf("%s is used by no kernel", p)
		}
	}
}

// The kernels keep to what the backend and the tests' C++ shim take:
// threadgroup memory only as kernel arguments, no program-scope variables
// but constants, and the directives' numbers well formed.
func TestSubset(t *testing.T) {
	all, _ := fs.Glob(files, "*.metal")
	parts, _ := fs.Glob(files, "parts/*.metal")
	for _, f := range append(all, parts...) {
		src, _ := files.ReadFile(f)
		for i, line := range strings.Split(string(src), "\n") {
			code, _, _ := strings.Cut(line, "//")
			// A pointer into threadgroup memory is fine; an array of it is not.
			if c := strings.TrimSpace(code); strings.HasPrefix(c, "threadgroup ") && !strings.Contains(c, "*") && strings.HasSuffix(c, ";") {
				t.Errorf("%s:%d declares threadgroup memory in a body; pass it as a [[threadgroup(N)]] argument", f, i+1)
			}
			if strings.Contains(code, "static ") || strings.Contains(code, "thread_local") {
				t.Errorf("%s:%d: no static or thread-local state in a kernel", f, i+1)
			}
		}
	}
	if _, err := Load("matmul", "", Features{}); err == nil {
		t.Error("matmul assembled without a weight type")
	}
	if _, err := Load("no_such_kernel", "", Features{}); err == nil {
		t.Error("a kernel that does not exist assembled")
	}
}

func TestSignature(t *testing.T) {
	src := `kernel void k(constant Params& P [[buffer(0)]], // the parameters (of the kernel)
    device const float* X [[ buffer(2) ]], threadgroup float* red [[threadgroup(0)]],
    uint3 tg [[threadgroup_position_in_grid]]) { }`
	ps, err := Signature(src, "k")
	if err != nil {
		t.Fatal(err)
	}
	want := []Param{
		{Name: "P", Type: "constant Params&", Attr: "buffer(0)"},
		{Name: "X", Type: "device const float*", Attr: "buffer(2)"},
		{Name: "red", Type: "threadgroup float*", Attr: "threadgroup(0)"},
		{Name: "tg", Type: "uint3", Attr: "threadgroup_position_in_grid"},
	}
	if !slices.Equal(ps, want) {
		t.Errorf("got %+v\nwant %+v", ps, want)
	}
	for _, bad := range []string{
		`kernel void k(device float* X) {}`,
		`kernel void k(device float* X [[sample_id]]) {}`,
		`kernel void j(device float* X [[buffer(2)]]) {}`,
		`kernel void k(device float* X [[buffer(2)]] {}`,
		`kernel void k() {} kernel void k() {}`,
	} {
		if _, err := Signature(bad, "k"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
