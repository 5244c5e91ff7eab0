package oracle

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// llama.cpp ships its CPU code built several times, once for each
// instruction set (on x86: x64, sse42, sandybridge, haswell, skylakex,
// zen4, ...; on arm64: armv8.0 to armv9.2), and loads the best one the CPU
// runs. The builds sum products in other orders, so they differ from each
// other in the last bits, and on quantized models those bits grow as they
// do between any two orders. Comparing them shows how close llama.cpp
// comes to itself from one machine to another: the yardstick for another
// backend's differences, and the bound the parity tests fall back on where
// the build ember mirrors does not load.

// BuildEnv names the environment variable that makes Node run llama.cpp
// on one of its CPU builds, as if the CPU ran no better one: with
// EMBER_ORACLE_BUILD=haswell the parity tests take the path of a machine
// without AVX-512 on any machine that runs haswell's instructions.
const BuildEnv = "EMBER_ORACLE_BUILD"

// cpuBuildsDir is where the npm package keeps the builds for the machine
// Node runs on, as a path relative to the oracle folder.
func cpuBuildsDir() (string, error) {
	plat, err := nodePlatform()
	if err != nil {
		return "", err
	}
	return filepath.Join("node_modules", "@node-llama-cpp", plat, "bins", plat), nil
}

// nodePlatform names the npm package's platform for the machine Node and
// g++ run on, read from the node executable's ELF header rather than from
// runtime.GOARCH: make arm64 runs the tests as arm64 code under qemu-user
// while Node and llama.cpp run natively on the x86-64 host.
func nodePlatform() (string, error) {
	if runtime.GOOS != "linux" {
		return "", fmt.Errorf("llama.cpp's CPU builds are compared on linux only, not %s", runtime.GOOS)
	}
	machine := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[runtime.GOARCH]
	if path, err := exec.LookPath("node"); err == nil {
		if f, err := elf.Open(path); err == nil {
			machine = f.Machine
			f.Close()
		}
	}
	switch machine {
	case elf.EM_X86_64:
		return "linux-x64", nil
	case elf.EM_AARCH64:
		return "linux-arm64", nil
	}
	return "", fmt.Errorf("llama.cpp's CPU builds are compared on x86-64 and arm64 only, not %v", machine)
}

// CPUBuilds lists the names of llama.cpp's CPU builds (haswell for
// libggml-cpu-haswell.so). Not every one loads on every CPU: LoadedBuild
// tells which one does.
func CPUBuilds() ([]string, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	return buildsIn(Dir())
}

func buildsIn(root string) ([]string, error) {
	rel, err := cpuBuildsDir()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, rel)
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
// NodeIn. Should that build not run on this CPU, llama.cpp then runs on
// none: LoadedBuild says so.
func WithCPUBuild(tmp, name string) (string, error) {
	if err := Available(); err != nil {
		return "", err
	}
	return withCPUBuild(Dir(), tmp, name)
}

// withCPUBuild is WithCPUBuild of the oracle folder src.
//
// It deletes the other builds from the copy. Through a symbolic link on
// the way to them (a node_modules linked to a shared one, a package linked
// into a store as pnpm does) the "copy" would be the original, and the
// deletions would strike the real files, as they once did; so a link
// anywhere on that way is refused, before anything is copied and again in
// the copy, where the deletions happen.
func withCPUBuild(src, tmp, name string) (string, error) {
	names, err := buildsIn(src)
	if err != nil {
		return "", err
	}
	if !slices.Contains(names, name) {
		return "", fmt.Errorf("llama.cpp has no CPU build %q (it has %s)", name, strings.Join(names, ", "))
	}
	rel, _ := cpuBuildsDir()
	if err := noLinks(src, rel); err != nil {
		return "", err
	}
	dst := filepath.Join(tmp, "oracle-"+name)
	if err := exec.Command("cp", "-al", src, dst).Run(); err != nil {
		// Hard links cannot cross file systems: copy the bytes (about
		// 800 MB) instead.
		os.RemoveAll(dst)
		if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
			return "", fmt.Errorf("copying the oracle folder: %v: %s", err, bytes.TrimSpace(out))
		}
	}
	if err := noLinks(dst, rel); err != nil {
		// os.RemoveAll removes a link, never what it points to.
		os.RemoveAll(dst)
		return "", err
	}
	dir := filepath.Join(dst, rel)
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

// noLinks fails when root, or a folder on the way from root down to
// root/rel, is a symbolic link.
func noLinks(root, rel string) error {
	p := root
	for _, part := range append([]string{""}, strings.Split(rel, string(filepath.Separator))...) {
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			to, _ := os.Readlink(p)
			return fmt.Errorf("%s is a symbolic link (to %s): a copy of the oracle folder keeping one CPU build would delete the other builds through it from the original; install the npm packages as real folders (make oracle)", p, to)
		}
	}
	return nil
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

// LoadedBuild is the name of the CPU build llama.cpp loads from the
// oracle folder dir on this machine (cpu_build.mjs), for instance zen4 on
// an AVX-512 AMD CPU, haswell on an AVX2 one.
func LoadedBuild(dir string) (string, error) {
	out, err := NodeIn(dir, "cpu_build.mjs")
	if err != nil {
		return "", err
	}
	name := strings.TrimSpace(string(out))
	if name == "" || strings.ContainsAny(name, " \n/") {
		return "", fmt.Errorf("cpu_build.mjs printed %q, want a build's name", out)
	}
	return name, nil
}

// active is the oracle folder Node runs in and the build llama.cpp loads
// there, each found once a process.
var active struct {
	dirOnce, buildOnce sync.Once
	dir, build         string
	dirErr, buildErr   error
}

// activeDir is the oracle folder Node runs its scripts in: this folder, or,
// with EMBER_ORACLE_BUILD set, a copy holding only that build.
func activeDir() (string, error) {
	active.dirOnce.Do(func() {
		if active.dirErr = Available(); active.dirErr != nil {
			return
		}
		active.dir = Dir()
		if name := os.Getenv(BuildEnv); name != "" {
			if active.dir, active.dirErr = sharedCopy(name); active.dirErr != nil {
				active.dirErr = fmt.Errorf("%s=%s: %w", BuildEnv, name, active.dirErr)
			}
		}
	})
	return active.dir, active.dirErr
}

// Active is the oracle folder Node runs its scripts in, and the CPU build
// llama.cpp loads there: this folder and the best build for this CPU, or,
// with EMBER_ORACLE_BUILD set, a copy holding only that build (an error if
// that build does not run here).
func Active() (dir, build string, err error) {
	if dir, err = activeDir(); err != nil {
		return "", "", err
	}
	active.buildOnce.Do(func() {
		active.build, active.buildErr = LoadedBuild(dir)
		if want := os.Getenv(BuildEnv); active.buildErr == nil && want != "" && active.build != want {
			active.buildErr = fmt.Errorf("%s=%s, but llama.cpp loaded %s", BuildEnv, want, active.build)
		}
	})
	return dir, active.build, active.buildErr
}

// sharedCopy is a WithCPUBuild copy for name that every test process
// shares: in the temporary folder, named by the build and by the installed
// libraries (so that a reinstall makes another), made once and then
// reused. Two processes may make it at once; each makes its own and
// renames it into place, and the later one takes the earlier's.
func sharedCopy(name string) (string, error) {
	rel, err := cpuBuildsDir()
	if err != nil {
		return "", err
	}
	// What the copy was made from: the addon and the build's library, by
	// size and time (a hard link or cp -a keeps both),
	// and the scripts, by content (an edit may replace a file, leaving
	// the copy's link to the old one).
	h := sha256.New()
	for _, f := range []string{"llama-addon.node", "libggml-base.so", "libggml-cpu-" + name + ".so"} {
		st, err := os.Stat(filepath.Join(Dir(), rel, f))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d %d\n", f, st.Size(), st.ModTime().UnixNano())
	}
	scripts, _ := filepath.Glob(filepath.Join(Dir(), "*.mjs"))
	for _, f := range scripts {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %x\n", filepath.Base(f), sha256.Sum256(b))
	}
	base := filepath.Join(os.TempDir(), fmt.Sprintf("ember-oracle-%d", os.Getuid()))
	final := filepath.Join(base, fmt.Sprintf("%s-%x", name, h.Sum(nil)[:6]))
	if _, err := os.Stat(filepath.Join(final, "cpu_build.mjs")); err == nil {
		return final, nil
	}
	if err := os.MkdirAll(base, 0o700); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(base, "new-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	made, err := WithCPUBuild(tmp, name)
	if err != nil {
		return "", err
	}
	if err := os.Rename(made, final); err != nil {
		if _, serr := os.Stat(filepath.Join(final, "cpu_build.mjs")); serr == nil {
			return final, nil // another process was first
		}
		return "", errors.Join(errors.New("moving the oracle copy into place"), err)
	}
	return final, nil
}
