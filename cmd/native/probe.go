package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/emberllm/ember/engine/registry"
)

// --backend auto decides between WebGPU and the CPU without starting a
// Vulkan instance where it can (starting one costs 0.3 to 1.3 s and tens
// of MB even when it only finds lavapipe):
//
//   - on Linux a GPU is reached through a device node (/dev/dri/renderD*,
//     /dev/nvidia*, WSL's /dev/dxg): without one, only software adapters
//     can exist, and the CPU is taken at once;
//   - otherwise the probe's verdict is cached, keyed by what it depends on
//     (the device nodes and the Vulkan driver manifests with their sizes
//     and times): a machine whose only adapter is a software renderer is
//     probed once, not on every run.

// gpuNodes lists the GPU device nodes present ("" on systems where they
// are not the way to a GPU: nil with ok false).
func gpuNodes() (nodes []string, ok bool) {
	if runtime.GOOS != "linux" {
		return nil, false
	}
	for _, pat := range []string{"/dev/dri/renderD*", "/dev/nvidia[0-9]*", "/dev/dxg"} {
		m, _ := filepath.Glob(pat)
		nodes = append(nodes, m...)
	}
	return nodes, true
}

// vulkanManifests are the Vulkan loader's driver manifests, as it finds
// them (VK_DRIVER_FILES / VK_ICD_FILENAMES, else the standard folders).
func vulkanManifests() []string {
	for _, env := range []string{"VK_DRIVER_FILES", "VK_ICD_FILENAMES"} {
		if v := os.Getenv(env); v != "" {
			return filepath.SplitList(v)
		}
	}
	dirs := []string{"/etc/vulkan/icd.d", "/usr/share/vulkan/icd.d", "/usr/local/share/vulkan/icd.d"}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local/share/vulkan/icd.d"))
	}
	for _, env := range []string{"XDG_DATA_DIRS", "XDG_CONFIG_DIRS"} {
		for _, d := range filepath.SplitList(os.Getenv(env)) {
			dirs = append(dirs, filepath.Join(d, "vulkan/icd.d"))
		}
	}
	var out []string
	for _, d := range dirs {
		m, _ := filepath.Glob(filepath.Join(d, "*.json"))
		out = append(out, m...)
	}
	return out
}

// probeKey fingerprints what a probe's verdict depends on.
func probeKey(nodes, manifests []string) string {
	h := sha256.New()
	all := append(append([]string{runtime.GOOS, runtime.GOARCH}, nodes...), manifests...)
	sort.Strings(all[2:])
	for _, p := range all {
		fmt.Fprintf(h, "%s\x00", p)
		if st, err := os.Stat(p); err == nil {
			fmt.Fprintf(h, "%d %d\x00", st.Size(), st.ModTime().UnixNano())
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// probeCache is where verdicts are kept: one line "KEY VERDICT" in the
// cache folder (verdicts: software, none, gpu).
func probeCache() string {
	dir, err := registry.CacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "backend-auto")
}

func cachedVerdict(file, key string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 4096))
	k, v, ok := strings.Cut(strings.TrimSpace(string(b)), " ")
	if !ok || k != key {
		return ""
	}
	return v
}

func saveVerdict(file, key, verdict string) {
	if file == "" {
		return
	}
	os.MkdirAll(filepath.Dir(file), 0o755)
	tmp := file + ".tmp"
	if os.WriteFile(tmp, []byte(key+" "+verdict+"\n"), 0o644) == nil {
		os.Rename(tmp, file)
	}
}

// autoProbe says whether --backend auto should try WebGPU, and returns
// record, which takes the verdict of the probe when one is made.
func autoProbe(verbose bool) (try bool, record func(verdict string)) {
	nodes, linux := gpuNodes()
	if linux && len(nodes) == 0 {
		if verbose {
			fmt.Fprintln(os.Stderr, "backend auto: no GPU device (/dev/dri/renderD*, /dev/nvidia*, /dev/dxg); using the CPU without probing Vulkan")
		}
		return false, func(string) {}
	}
	file, key := probeCache(), probeKey(nodes, vulkanManifests())
	if v := cachedVerdict(file, key); v == "software" || v == "none" {
		if verbose {
			fmt.Fprintf(os.Stderr, "backend auto: this machine's WebGPU adapter was found to be %s (cached in %s); using the CPU\n",
				map[string]string{"software": "a software renderer", "none": "missing"}[v], file)
		}
		return false, func(string) {}
	}
	return true, func(verdict string) { saveVerdict(file, key, verdict) }
}
