//go:build linux && (amd64 || arm64)

package metal

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/emberllm/ember/msl"
)

// The emulated device runs the MSL kernels on the CPU: each kernel's source,
// compiled as C++17 against the shim in testdata/shim (the Metal standard
// library's part the kernels use, and a runtime running threadgroups as
// fibers), becomes a shared object that purego loads; a dispatch calls it
// over the grid. Everything above the device interface is the backend as
// it runs on a Mac. Buffers are memory the host maps; weights are wrapped
// in place, their pages bound at the weight's offset, as Metal wraps them.

// emuDevice is a device whose kernels run on the CPU.
type emuDevice struct {
	maxBuf int
	err    error
}

func newEmuDevice() *emuDevice { return &emuDevice{maxBuf: 1 << 30} }

func (d *emuDevice) name() string   { return "emulated on the CPU" }
func (d *emuDevice) family() string { return "none" }
func (d *emuDevice) features() msl.Features {
	return msl.Features{SIMD: true, Matrix: true}
}
func (d *emuDevice) maxBuffer() int { return d.maxBuf }
func (d *emuDevice) close()         {}

func (d *emuDevice) wait() error {
	err := d.err
	d.err = nil
	return err
}

// emuMem is a buffer: b in an anonymous mapping it owns (mapped, whole,
// in mapping), or a wrapped weight's bytes, b being the buffer's from
// byte at on.
type emuMem struct {
	b       []byte
	at      int
	mapping []byte
}

func (m *emuMem) host(off int) []byte { return m.b[off-m.at:] }

// addr is the address of the buffer's byte off, which for a wrapped
// weight may lie before its first (a binding's offset rounded down):
// computed, never held as a Go pointer (see device.wrap).
func (m *emuMem) addr(off int) uintptr {
	return uintptr(unsafe.Pointer(&m.b[0])) - uintptr(m.at) + uintptr(off)
}

func (m *emuMem) release() {
	if m.mapping != nil {
		syscall.Munmap(m.mapping)
	}
	m.b, m.mapping = nil, nil
}

// alloc maps the buffer's bytes to end (16-byte aligned) against a page
// no access is allowed to, with another such page before them: a kernel
// that reads or writes 16 bytes or more past either end faults there
// instead of touching the next buffer.
func (d *emuDevice) alloc(n int) (memory, error) {
	span := (n + pageSize - 1) &^ (pageSize - 1)
	m, err := syscall.Mmap(-1, 0, span+2*pageSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, err
	}
	for _, guard := range [][]byte{m[:pageSize], m[pageSize+span:]} {
		if err := syscall.Mprotect(guard, syscall.PROT_NONE); err != nil {
			syscall.Munmap(m)
			return nil, err
		}
	}
	start := pageSize + span - (n+15)&^15
	return &emuMem{b: m[start : start+n : start+n], mapping: m}, nil
}

func (d *emuDevice) wrap(data []byte) (memory, int, error) {
	if len(data) == 0 {
		return nil, 0, errors.New("wrapping no bytes")
	}
	off := int(uintptr(unsafe.Pointer(&data[0])) % uintptr(pageSize))
	n := (off + len(data) + pageSize - 1) &^ (pageSize - 1)
	if n > d.maxBuf {
		return nil, 0, fmt.Errorf("%d bytes of pages exceed the %d-byte buffer limit", n, d.maxBuf)
	}
	return &emuMem{b: data, at: off}, off, nil
}

// emuPipe is a kernel's shared object and its entry point, and the
// translation unit it was built from (the key of dispatched).
type emuPipe struct {
	fn uintptr
	k  *msl.Kernel
	tu string
}

// dispatched holds every translation unit a test of this process ran on
// the grid: TestMain holds a whole run of the package's tests to having
// run every build of every kernel.
var dispatched sync.Map

func (p *emuPipe) release() {}

func (d *emuDevice) pipeline(src string, k *msl.Kernel) (pipeline, error) {
	tu, err := trampoline(src, k)
	if err != nil {
		return nil, err
	}
	so, err := compileShared(tu)
	if err != nil {
		return nil, fmt.Errorf("compiling %s as C++: %w", k.Name, err)
	}
	lib, err := purego.Dlopen(so, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return nil, err
	}
	fn, err := purego.Dlsym(lib, "ember_dispatch")
	if err != nil {
		return nil, err
	}
	return &emuPipe{fn: fn, k: k, tu: tu}, nil
}

// run runs the commands now, one after another; wait reports the first
// error.
func (d *emuDevice) run(cmds []*command, step []byte) error {
	msg := make([]byte, 512)
	for _, c := range cmds {
		if d.err != nil {
			return nil
		}
		bufs := make([]uintptr, 2+len(c.args))
		params := append([]byte(nil), c.params...)
		bufs[0] = uintptr(unsafe.Pointer(&params[0]))
		bufs[1] = uintptr(unsafe.Pointer(&step[0]))
		for i, a := range c.args {
			bufs[2+i] = a.mem.(*emuMem).addr(a.off)
		}
		grid := []uint64{uint64(c.groups), 1, 1}
		tg := make([]uint64, max(len(c.k.Threadgroup), 1))
		for i, n := range c.k.Threadgroup {
			tg[i] = uint64(n)
		}
		pipe := c.pipe.(*emuPipe)
		dispatched.Store(pipe.tu, true)
		rc, _, _ := purego.SyscallN(pipe.fn, uintptr(unsafe.Pointer(&bufs[0])), uintptr(unsafe.Pointer(&grid[0])),
			uintptr(c.k.Threads), uintptr(unsafe.Pointer(&tg[0])), uintptr(len(c.k.Threadgroup)),
			uintptr(unsafe.Pointer(&msg[0])), uintptr(len(msg)))
		runtime.KeepAlive(params)
		runtime.KeepAlive(c.args)
		if int32(rc) != 0 {
			d.err = fmt.Errorf("kernel %s: %s", c.name, strings.TrimRight(string(msg), "\x00"))
		}
	}
	return nil
}

// builtinField is the emulated thread's field holding each built-in.
var builtinField = map[string]string{
	"threadgroup_position_in_grid":   "tgpig",
	"thread_position_in_threadgroup": "tpitg",
	"thread_index_in_threadgroup":    "tiitg",
	"threads_per_threadgroup":        "tptg",
	"thread_position_in_grid":        "tpig",
	"threadgroups_per_grid":          "ntg",
	"simdgroup_index_in_threadgroup": "sgitg",
	"thread_index_in_simdgroup":      "tiisg",
	"threads_per_simdgroup":          "tpsg",
}

// vectorBuiltins are the built-ins the runtime keeps as uint3.
var vectorBuiltins = map[string]bool{"tgpig": true, "tpitg": true, "tptg": true, "tpig": true, "ntg": true}

// trampoline is the C++ translation unit of a kernel: its source, the
// runtime, and ember_dispatch, which calls the kernel for each thread with
// its arguments cast from the buffers and threadgroup memory it is given.
func trampoline(src string, k *msl.Kernel) (string, error) {
	var call []string
	for _, p := range k.Params {
		typ := plainType(p.Type)
		if i, ok := p.Index("buffer"); ok {
			call = append(call, castArg(typ, fmt.Sprintf("b[%d]", i)))
			continue
		}
		if i, ok := p.Index("threadgroup"); ok {
			call = append(call, castArg(typ, fmt.Sprintf("tg[%d]", i)))
			continue
		}
		f := builtinField[p.Attr]
		switch {
		case f == "":
			return "", fmt.Errorf("%s: no emulation of [[%s]]", k.Name, p.Attr)
		case vectorBuiltins[f] && typ == "uint":
			f += ".x"
		case !vectorBuiltins[f] && typ != "uint":
			return "", fmt.Errorf("%s: [[%s]] is a uint, not %s", k.Name, p.Attr, typ)
		}
		call = append(call, "L."+f)
	}
	var b strings.Builder
	// Attributes mean nothing to the C++ compiler, and [[threadgroup(0)]]
	// would not survive the shim's macro of that name.
	b.WriteString(attribute.ReplaceAllString(src, ""))
	fmt.Fprintf(&b, `
#include "emu_runtime.h"
static void ember_lane(void** b, void** tg, const emu::Lane& L) {
    (void)b; (void)tg;
    %s(%s);
}
extern "C" __attribute__((visibility("default"))) int ember_dispatch(void** bufs, const uint64_t* grid, uint threads,
    const uint64_t* tgBytes, int ntg, char* err, int errLen) {
    return emu::dispatch(ember_lane, bufs, grid, threads, tgBytes, ntg, err, errLen);
}
`, k.Name, strings.Join(call, ",\n        "))
	return b.String(), nil
}

var attribute = regexp.MustCompile(`\[\[[^\]]*\]\]`)

// plainType is a parameter's type without MSL's address spaces.
func plainType(t string) string {
	var out []string
	for _, w := range strings.Fields(strings.NewReplacer("*", " * ", "&", " & ").Replace(t)) {
		switch w {
		case "device", "constant", "thread", "threadgroup":
		default:
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

// castArg is the expression passing pointer p as a parameter of type typ:
// a pointer cast, or for a reference the pointee.
func castArg(typ, p string) string {
	if t, ok := strings.CutSuffix(typ, "&"); ok {
		return fmt.Sprintf("*(%s*)%s", strings.TrimSpace(t), p)
	}
	return fmt.Sprintf("(%s)%s", typ, p)
}

var (
	compileMu sync.Mutex
	compiled  = map[string]string{}
)

// shimDir is the shim's directory (tests run in the package's).
func shimDir() (string, error) { return filepath.Abs(filepath.Join("testdata", "shim")) }

// compileShared compiles a translation unit into a shared object, once per
// source: in a cache directory under the user's cache (or the system's
// temporary one), named by a hash of the source, the shim and the
// compiler's flags, so later test runs load what earlier ones built.
func compileShared(tu string) (string, error) {
	dir, err := shimDir()
	if err != nil {
		return "", err
	}
	cxx := os.Getenv("CXX")
	if cxx == "" {
		cxx = "g++"
	}
	flags := []string{"-std=c++17", "-O1", "-fPIC", "-shared", "-fno-strict-aliasing", "-ffp-contract=off",
		"-fvisibility=hidden", "-I", dir, "-lm"}
	h := sha256.New()
	fmt.Fprintln(h, cxx, flags)
	h.Write([]byte(tu))
	for _, f := range []string{"metal_stdlib", "emu_runtime.h"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return "", err
		}
		h.Write(b)
	}
	key := hex.EncodeToString(h.Sum(nil))[:24]
	compileMu.Lock()
	so, ok := compiled[key]
	compileMu.Unlock()
	if ok {
		return so, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	cache = filepath.Join(cache, "ember", "msl-emu")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	so = filepath.Join(cache, key+".so")
	if _, err := os.Stat(so); err != nil {
		// Under names of their own until done: other test processes may
		// build the same kernel at the same time.
		src, err := os.CreateTemp(cache, key+".*.cpp")
		if err != nil {
			return "", err
		}
		defer os.Remove(src.Name())
		if _, err := src.WriteString(tu); err != nil {
			src.Close()
			return "", err
		}
		src.Close()
		tmp := strings.TrimSuffix(src.Name(), ".cpp") + ".so"
		out, err := exec.Command(cxx, append(flags, "-o", tmp, src.Name())...).CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("%v\n%s", err, out)
		}
		if err := os.Rename(tmp, so); err != nil {
			return "", err
		}
	}
	compileMu.Lock()
	compiled[key] = so
	compileMu.Unlock()
	return so, nil
}

// TestMain builds every kernel the tests may ask for before they run, a
// few compilers at a time: compiled one by one as the tests first ask,
// they would take most of a fresh machine's test time. A run of every
// test (no -run) must then have dispatched every build: each kernel, for
// each type it takes, with SIMD-group functions and without, ran against
// a CPU reference somewhere in the suites.
func TestMain(m *testing.M) {
	units, err := prebuild()
	if err != nil {
		fmt.Fprintln(os.Stderr, "metal: building the kernels as C++:", err)
		os.Exit(1)
	}
	code := m.Run()
	if code == 0 && flag.Lookup("test.run").Value.String() == "" && !testing.Short() {
		var never []string
		for tu, name := range units {
			if _, ok := dispatched.Load(tu); !ok {
				never = append(never, name)
			}
		}
		if len(never) > 0 {
			sort.Strings(never)
			fmt.Fprintf(os.Stderr, "metal: no test ran these kernel builds on the emulated device: %s\n", strings.Join(never, ", "))
			code = 1
		}
	}
	os.Exit(code)
}

// prebuild compiles every build of kernelDecoders, with and without
// SIMD-group functions, into the cache compileShared keeps, and returns
// the translation units, each named by its kernel, type and features.
func prebuild() (map[string]string, error) {
	// The translation units, each once (a kernel without //!reduce or
	// //!tilemul is the same with SIMD-group functions and without).
	units := map[string]string{}
	for name, decs := range kernelDecoders {
		for _, dec := range decs {
			for _, f := range []msl.Features{{}, {SIMD: true, Matrix: true}} {
				src, k, err := kernelSource(name, dec, f)
				if err != nil {
					return nil, err
				}
				tu, err := trampoline(src, k)
				if err != nil {
					return nil, err
				}
				if _, ok := units[tu]; !ok || f.SIMD {
					units[tu] = fmt.Sprintf("%s/%s %+v", name, dec, f)
				}
			}
		}
	}
	work := make(chan string)
	errs := make(chan error, len(units))
	var wg sync.WaitGroup
	for range max(1, runtime.NumCPU()) {
		wg.Go(func() {
			for tu := range work {
				if _, err := compileShared(tu); err != nil {
					errs <- fmt.Errorf("%s: %w", units[tu], err)
				}
			}
		})
	}
	for tu := range units {
		work <- tu
	}
	close(work)
	wg.Wait()
	close(errs)
	return units, <-errs
}
