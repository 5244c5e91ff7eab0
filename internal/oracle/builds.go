package oracle

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// llama.cpp ships its x86 CPU code built several times, once for each
// instruction set (x64, sse42, sandybridge, haswell, skylakex, zen4, ...),
// and loads the best one the CPU runs. The builds sum products in other
// orders, so they differ from each other in the last bits, and on quantized
// models those bits grow as they do between any two orders. Comparing
// them shows how close llama.cpp comes to itself from one machine to
// another: the yardstick for another backend's differences.

// cpuBuildsDir is where the npm package keeps the builds on this platform.
func cpuBuildsDir(root string) (string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return "", fmt.Errorf("llama.cpp's CPU builds are compared on linux/amd64 only, not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return filepath.Join(root, "node_modules", "@node-llama-cpp", "linux-x64", "bins", "linux-x64"), nil
}

// CPUBuilds lists the names of llama.cpp's CPU builds (haswell for
// libggml-cpu-haswell.so).
func CPUBuilds() ([]string, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	dir, err := cpuBuildsDir(Dir())
	if err != nil {
		return nil, err
	}
	libs, _ := filepath.Glob(filepath.Join(dir, "libggml-cpu-*.so"))
	if len(libs) == 0 {
		return nil, fmt.Errorf("no libggml-cpu-*.so in %s", dir)
	}
	var names []string
	for _, l := range libs {
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(l), "libggml-cpu-"), ".so"))
	}
	return names, nil
}

// WithCPUBuild makes a copy of this folder under tmp, hard-linked where
// tmp is on the same file system (no space, a fraction of a second), in
// which llama.cpp finds only its CPU build name, and returns the copy for
// NodeIn.
func WithCPUBuild(tmp, name string) (string, error) {
	names, err := CPUBuilds()
	if err != nil {
		return "", err
	}
	if !slices.Contains(names, name) {
		return "", fmt.Errorf("llama.cpp has no CPU build %q (it has %s)", name, strings.Join(names, ", "))
	}
	dst := filepath.Join(tmp, "oracle-"+name)
	if err := exec.Command("cp", "-al", Dir(), dst).Run(); err != nil {
		// Hard links cannot cross file systems: copy the bytes (about
		// 800 MB) instead.
		os.RemoveAll(dst)
		if out, err := exec.Command("cp", "-a", Dir(), dst).CombinedOutput(); err != nil {
			return "", fmt.Errorf("copying the oracle folder: %v: %s", err, bytes.TrimSpace(out))
		}
	}
	dir, _ := cpuBuildsDir(dst)
	keep := filepath.Join(dir, "libggml-cpu-"+name+".so")
	libs, _ := filepath.Glob(filepath.Join(dir, "libggml-cpu-*.so"))
	for _, l := range libs {
		if l != keep {
			if err := os.Remove(l); err != nil {
				return "", err
			}
		}
	}
	return dst, nil
}

// NodeIn is Node on the scripts of the folder dir (a WithCPUBuild copy).
func NodeIn(dir, script string, args ...string) ([]byte, error) {
	cmd := exec.Command("node", append([]string{filepath.Join(dir, script)}, args...)...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("oracle %s in %s: %v: %s", script, dir, err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), nil
}
