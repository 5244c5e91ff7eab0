package oracle

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestWithCPUBuild(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("llama.cpp's x86 CPU builds are on linux/amd64 only")
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
	rel, _ := cpuBuildsDir()
	libs, _ := filepath.Glob(filepath.Join(dir, rel, "libggml-cpu-*.so"))
	if len(libs) != 1 || filepath.Base(libs[0]) != "libggml-cpu-haswell.so" {
		t.Fatalf("the copy keeps %v, want only libggml-cpu-haswell.so", libs)
	}
	// The links removed from the copy are still in the original.
	again, err := CPUBuilds()
	if err != nil || len(again) != len(names) {
		t.Fatalf("after the copy the original has %v (%v), want %v", again, err, names)
	}
	// llama.cpp runs from the copy on the build left, and says so.
	if got, err := LoadedBuild(dir); err != nil || got != "haswell" {
		t.Fatalf("LoadedBuild of the haswell copy: %q, %v", got, err)
	}
	shared := SharedDir()
	if shared == "" {
		t.Skip("../shared is absent: no model to run")
	}
	model := filepath.Join(shared, "models", "stories260K.gguf")
	rows, err := LogprobsIn(dir, Forced{Model: model, Prompt: 2, IDs: []int32{1, 403, 407, 261}}, Forced{Model: model, Prompt: 1, IDs: []int32{1, 403}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || len(rows[0]) != 3 || len(rows[1]) != 2 || len(rows[0][0]) != 512 {
		t.Fatalf("logprobs.mjs gave %d runs, want 2: 3 rows along 4 ids from a prompt of 2, then 2 along 2 from 1; of 512 entries", len(rows))
	}
	if _, err := WithCPUBuild(tmp, "nonesuch"); err == nil || !strings.Contains(err.Error(), `"nonesuch"`) {
		t.Fatalf("WithCPUBuild of a build llama.cpp lacks: %v, want an error naming it", err)
	}
}

// TestWithCPUBuildRefusesLinks: where node_modules, or a folder inside it
// on the way to the libraries, is a symbolic link, the copy would reach
// the original's libraries through it and delete them. WithCPUBuild
// refuses, and every library is still there.
func TestWithCPUBuildRefusesLinks(t *testing.T) {
	rel, err := cpuBuildsDir()
	if err != nil {
		t.Skip(err)
	}
	for _, linked := range []string{
		"node_modules",                  // node_modules shared with another folder
		filepath.Dir(filepath.Dir(rel)), // the platform's package linked into a store, as pnpm does
	} {
		t.Run(strings.ReplaceAll(linked, "/", "_"), func(t *testing.T) {
			tmp := t.TempDir()
			// The real tree, elsewhere, with two builds.
			store := filepath.Join(tmp, "store")
			libs := fakeBuilds(t, store)
			// The oracle folder, reaching it through a link at linked.
			src := filepath.Join(tmp, "oracle")
			if err := os.MkdirAll(filepath.Dir(filepath.Join(src, linked)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(store, linked), filepath.Join(src, linked)); err != nil {
				t.Fatal(err)
			}
			if got, err := buildsIn(src); err != nil || len(got) != 2 {
				t.Fatalf("buildsIn through the link: %v, %v; want both builds", got, err)
			}
			out := filepath.Join(tmp, "out")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			_, err := withCPUBuild(src, out, "haswell")
			if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), filepath.Join(src, linked)) {
				t.Fatalf("withCPUBuild through a link at %s: %v, want an error naming the link", linked, err)
			}
			for _, b := range []string{"haswell", "zen4"} {
				if _, err := os.Stat(filepath.Join(libs, "libggml-cpu-"+b+".so")); err != nil {
					t.Errorf("the original's %s build is gone: %v", b, err)
				}
			}
		})
	}
	// The same tree without links: the copy keeps one build, the original
	// both.
	tmp := t.TempDir()
	src := filepath.Join(tmp, "oracle")
	fakeBuilds(t, src)
	dst, err := withCPUBuild(src, tmp, "haswell")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := buildsIn(dst); !slices.Equal(got, []string{"haswell"}) {
		t.Errorf("the copy has %v, want [haswell]", got)
	}
	if got, _ := buildsIn(src); len(got) != 2 {
		t.Errorf("the original has %v, want both builds", got)
	}
}

// fakeBuilds makes an oracle folder's library folder under root with two
// stand-in builds, haswell and zen4, and returns it.
func fakeBuilds(t *testing.T, root string) string {
	t.Helper()
	rel, _ := cpuBuildsDir()
	libs := filepath.Join(root, rel)
	if err := os.MkdirAll(libs, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{"haswell", "zen4"} {
		if err := os.WriteFile(filepath.Join(libs, "libggml-cpu-"+b+".so"), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return libs
}

// TestActive: Node runs where EMBER_ORACLE_BUILD says, and llama.cpp loads
// that build there; without it, the best build for this CPU in this folder.
func TestActive(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	dir, build, err := Active()
	if err != nil {
		t.Fatal(err)
	}
	want := os.Getenv(BuildEnv)
	if want == "" {
		if dir != Dir() {
			t.Errorf("Active runs in %s, want %s", dir, Dir())
		}
		if build == "" {
			t.Error("Active names no build")
		}
	} else if build != want || dir == Dir() {
		t.Errorf("with %s=%s, Active is %s in %s", BuildEnv, want, build, dir)
	}
	t.Logf("llama.cpp loads its %s build in %s", build, dir)
}

// TestSharedCopy: a second request for a build's copy finds the first,
// and llama.cpp loads only that build there.
func TestSharedCopy(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("llama.cpp's x86 CPU builds are on linux/amd64 only")
	}
	if err := Available(); err != nil {
		t.Skip(err)
	}
	a, err := sharedCopy("x64")
	if err != nil {
		t.Fatal(err)
	}
	b, err := sharedCopy("x64")
	if err != nil || a != b {
		t.Fatalf("a second sharedCopy gives %s (%v), want %s", b, err, a)
	}
	if got, err := buildsIn(a); err != nil || !slices.Equal(got, []string{"x64"}) {
		t.Fatalf("the shared copy has %v (%v), want [x64]", got, err)
	}
}
