package oracle

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestWithCPUBuild(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("llama.cpp's CPU builds are compared on linux/amd64 only")
	}
	if err := Available(); err != nil {
		t.Skip(err)
	}
	names, err := CPUBuilds()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"haswell", "x64", "skylakex"} {
		if !slices.Contains(names, want) {
			t.Fatalf("CPUBuilds() = %v, want %s among them", names, want)
		}
	}
	tmp := t.TempDir()
	dir, err := WithCPUBuild(tmp, "haswell")
	if err != nil {
		t.Fatal(err)
	}
	bins, _ := cpuBuildsDir(dir)
	libs, _ := filepath.Glob(filepath.Join(bins, "libggml-cpu-*.so"))
	if len(libs) != 1 || filepath.Base(libs[0]) != "libggml-cpu-haswell.so" {
		t.Fatalf("the copy keeps %v, want only libggml-cpu-haswell.so", libs)
	}
	// The links removed from the copy are still in the original.
	again, err := CPUBuilds()
	if err != nil || len(again) != len(names) {
		t.Fatalf("after the copy the original has %v (%v), want %v", again, err, names)
	}
	// llama.cpp runs from the copy on the build left.
	shared := SharedDir()
	if shared == "" {
		t.Skip("../shared is absent: no model to run")
	}
	out, err := NodeIn(dir, "logprobs.mjs", filepath.Join(shared, "models", "stories260K.gguf"), "2", "1,403,407,261")
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Split(strings.TrimSpace(string(out)), "\n"); len(rows) != 3 {
		t.Fatalf("logprobs.mjs gave %d rows along 4 ids from a prompt of 2, want 3", len(rows))
	}
	if _, err := WithCPUBuild(tmp, "nonesuch"); err == nil || !strings.Contains(err.Error(), `"nonesuch"`) {
		t.Fatalf("WithCPUBuild of a build llama.cpp lacks: %v, want an error naming it", err)
	}
}
