package oracle

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// llama.cpp's command-line tools (llama-perplexity, llama-quantize, ...)
// are not in the npm package, but their source is (the git bundle) and so
// are the libraries they link (libllama, libllama-common, libggml and the
// CPU builds). Tool compiles a tool's own files against those libraries
// once, into the ignored folder build/ beside this file, where later calls
// and other test processes find it.

// toolRecipe is a tool's own files in llama.cpp's tree (all else it needs
// is in the npm package's libllama-common) and the function its main.cpp
// calls, which Tool's own main calls instead.
type toolRecipe struct {
	files []string
	entry string
}

var toolRecipes = map[string]toolRecipe{
	"llama-bench":      {[]string{"tools/llama-bench/llama-bench.cpp"}, "llama_bench"},
	"llama-perplexity": {[]string{"tools/perplexity/perplexity.cpp"}, "llama_perplexity"},
	"llama-quantize":   {[]string{"tools/quantize/quantize.cpp"}, "llama_quantize"},
}

// toolMain is the main Tool links: the tool's entry, then a flush of
// llama.cpp's logger, which writes from a thread of its own and is never
// torn down, so that without the flush a tool's last lines (the whole
// summary of llama-perplexity, now and then) can be lost at exit.
const toolMain = `#include "log.h"
int %[1]s(int argc, char ** argv);
int main(int argc, char ** argv) {
    int rc = %[1]s(argc, argv);
    common_log_flush(common_log_main());
    return rc;
}
`

// toolTree are the folders of llama.cpp's tree the tools compile from.
var toolTree = []string{"include", "ggml/include", "common", "vendor", "tools"}

var toolMu sync.Mutex

// ToolsDir is the folder Tool builds into (ignored by git).
func ToolsDir() string { return filepath.Join(Dir(), "build") }

// Tool returns the path of llama.cpp's command-line tool name, built on
// first use from the source in node-llama-cpp's git bundle against its
// prebuilt libraries (g++, a few seconds a tool), with the libraries
// linked beside it: it loads the CPU build the npm package's Node addon
// loads on this machine. Concurrent builders, in this process or others,
// each build apart and rename into place; the first rename wins.
func Tool(name string) (string, error) {
	recipe, ok := toolRecipes[name]
	if !ok {
		return "", fmt.Errorf("oracle: no recipe for llama.cpp tool %q", name)
	}
	bin := filepath.Join(ToolsDir(), name, name)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if runtime.GOOS != "linux" {
		return "", fmt.Errorf("oracle: llama.cpp's tools are built on Linux only, not %s", runtime.GOOS)
	}
	if err := Available(); err != nil {
		return "", err
	}
	if _, err := exec.LookPath("g++"); err != nil {
		return "", errors.New("oracle: g++ is not installed (it builds llama.cpp's tools)")
	}
	toolMu.Lock()
	defer toolMu.Unlock()
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	src, err := toolSource()
	if err != nil {
		return "", err
	}
	libs, err := prebuiltLibs()
	if err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(ToolsDir(), ".build-"+name+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	var link []string
	for _, l := range libs {
		if err := linkOrCopy(l, filepath.Join(tmp, filepath.Base(l))); err != nil {
			return "", err
		}
		if b := filepath.Base(l); !strings.HasPrefix(b, "libggml-cpu") && strings.HasSuffix(b, ".so") {
			link = append(link, "-l:"+b)
		}
	}
	main := filepath.Join(tmp, "main.cpp")
	if err := os.WriteFile(main, []byte(fmt.Sprintf(toolMain, recipe.entry)), 0o644); err != nil {
		return "", err
	}
	args := []string{"-O2", "-std=c++17", "-w", "-I", "include", "-I", "ggml/include", "-I", "common", "-I", "vendor"}
	args = append(args, recipe.files...)
	args = append(args, main)
	args = append(args, "-o", filepath.Join(tmp, name), "-L", tmp)
	args = append(args, link...)
	args = append(args, "-Wl,-rpath,$ORIGIN", "-pthread")
	cmd := exec.Command("g++", args...)
	cmd.Dir = src
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("oracle: building %s: %v\n%s", name, err, out)
	}
	os.Remove(main)
	if err := os.Rename(tmp, filepath.Dir(bin)); err != nil {
		if _, serr := os.Stat(bin); serr != nil {
			return "", fmt.Errorf("oracle: putting %s in place: %w", name, err)
		}
	}
	return bin, nil
}

// toolSource extracts the folders of llama.cpp's tree the tools need from
// the git bundle into build/src, once.
func toolSource() (string, error) {
	dst := filepath.Join(ToolsDir(), "src")
	if _, err := os.Stat(filepath.Join(dst, "tools")); err == nil {
		return dst, nil
	}
	bundle := filepath.Join(Dir(), "node_modules", "node-llama-cpp", "llama", "gitRelease.bundle")
	if _, err := os.Stat(bundle); err != nil {
		return "", fmt.Errorf("oracle: llama.cpp's source bundle is missing: %w", err)
	}
	if err := os.MkdirAll(ToolsDir(), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(ToolsDir(), ".src-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	git := filepath.Join(tmp, "git")
	tree := filepath.Join(tmp, "src")
	if out, err := exec.Command("git", "clone", "--quiet", "--bare", bundle, git).CombinedOutput(); err != nil {
		return "", fmt.Errorf("oracle: cloning llama.cpp's bundle: %v: %s", err, out)
	}
	if err := os.Mkdir(tree, 0o755); err != nil {
		return "", err
	}
	archive := exec.Command("git", append([]string{"--git-dir", git, "archive", "HEAD"}, toolTree...)...)
	untar := exec.Command("tar", "-x", "-C", tree)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	untar.Stdin = pipe
	var aerr, terr strings.Builder
	archive.Stderr, untar.Stderr = &aerr, &terr
	if err := untar.Start(); err != nil {
		return "", err
	}
	if err := archive.Run(); err != nil {
		untar.Wait()
		return "", fmt.Errorf("oracle: git archive of llama.cpp: %v: %s", err, aerr.String())
	}
	if err := untar.Wait(); err != nil {
		return "", fmt.Errorf("oracle: unpacking llama.cpp's source: %v: %s", err, terr.String())
	}
	if err := os.Rename(tree, dst); err != nil {
		if _, serr := os.Stat(filepath.Join(dst, "tools")); serr != nil {
			return "", fmt.Errorf("oracle: putting llama.cpp's source in place: %w", err)
		}
	}
	return dst, nil
}

// prebuiltLibs are the npm package's shared libraries for this platform:
// libllama, libllama-common, libggml, libggml-base and every CPU build
// (ggml picks among them at run time, as under Node).
func prebuiltLibs() ([]string, error) {
	rel, err := cpuBuildsDir()
	if err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	dir := filepath.Join(Dir(), rel)
	libs, _ := filepath.Glob(filepath.Join(dir, "*.so"))
	if len(libs) == 0 {
		return nil, fmt.Errorf("oracle: no prebuilt libraries in %s (run: make oracle)", dir)
	}
	return libs, nil
}

// linkOrCopy hard-links src to dst, or copies it where a link cannot
// reach (another file system).
func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// ToolOnBuild is Tool's tool in a folder of its own where llama.cpp finds
// only its CPU build named build (haswell, zen4, ...), as WithCPUBuild does
// for Node: ggml loads the best CPU build it finds beside the executable
// (and in the working directory, which must hold none), so the folder
// holds hard links to the tool and every library but the other CPU
// builds. An empty build is Tool itself.
func ToolOnBuild(name, build string) (string, error) {
	bin, err := Tool(name)
	if err != nil || build == "" {
		return bin, err
	}
	names, err := CPUBuilds()
	if err != nil {
		return "", err
	}
	if !slices.Contains(names, build) {
		return "", fmt.Errorf("oracle: llama.cpp has no CPU build %q (it has %s)", build, strings.Join(names, ", "))
	}
	dir := filepath.Join(ToolsDir(), name+"@"+build)
	out := filepath.Join(dir, name)
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	toolMu.Lock()
	defer toolMu.Unlock()
	tmp, err := os.MkdirTemp(ToolsDir(), ".on-"+build+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	files, err := os.ReadDir(filepath.Dir(bin))
	if err != nil {
		return "", err
	}
	for _, f := range files {
		n := f.Name()
		if strings.HasPrefix(n, "libggml-cpu-") && n != "libggml-cpu-"+build+".so" {
			continue
		}
		if err := linkOrCopy(filepath.Join(filepath.Dir(bin), n), filepath.Join(tmp, n)); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(out); serr != nil {
			return "", fmt.Errorf("oracle: putting %s in place: %w", dir, err)
		}
	}
	return out, nil
}
