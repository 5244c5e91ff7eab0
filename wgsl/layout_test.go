package wgsl

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// decoders are the values a kernel's weight or cache type may take.
var decoders = []string{"f32", "f16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q4_k", "q5_k", "q6_k", "cache_f32", "cache_f16"}

// The top of the folder holds kernels and parts/ their pieces: each file
// at the top assembles (for some weight type) into a source with one
// entry point, no name is in both places, and every piece is used by a
// kernel, so that a piece left behind by a removed kernel does not linger.
func TestLayout(t *testing.T) {
	used := map[string]bool{}
	for _, k := range Kernels() {
		if _, err := files.ReadFile("parts/" + k + ".wgsl"); err == nil {
			t.Errorf("%s.wgsl is both a kernel and a piece", k)
		}
		built := false
		for _, dec := range append([]string{""}, decoders...) {
			for _, sub := range []bool{false, true} {
				src, _, _, seen, err := assembleFiles([]string{k}, dec, sub)
				if err != nil {
					continue
				}
				built = true
				if n := strings.Count(src, "@compute"); n != 1 {
					t.Errorf("%s.wgsl (%q) has %d entry points, want 1", k, dec, n)
				}
				for n := range seen {
					used[n] = true
				}
			}
		}
		if !built {
			t.Errorf("%s.wgsl assembles for no weight type", k)
		}
	}
	parts, err := files.ReadDir("parts")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range parts {
		if n := strings.TrimSuffix(e.Name(), ".wgsl"); !used[n] {
			t.Errorf("parts/%s is used by no kernel", e.Name())
		}
	}
}

// Kernels read their parameter words by name (P_...), never by number.
func TestNoWordNumbers(t *testing.T) {
	number := regexp.MustCompile(`\b(pu|pf|pu_bound|at)\(\s*[0-9]`)
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if number.MatchString(line) {
				t.Errorf("%s:%d reads a parameter word by number: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
