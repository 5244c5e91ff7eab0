//go:build darwin

package metal

import (
	"errors"
	"fmt"
	"runtime"
	"structs"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/ebitengine/purego/objc"

	"github.com/emberllm/ember/msl"
)

// The Metal device through Objective-C messages sent with purego (no
// cgo): Metal.framework is opened at run time, and every call below is
// one objc_msgSend. The selectors and classes are looked up once. Encoding
// a step sends a few messages a dispatch, hundreds a token: those of
// integer and pointer arguments go straight through purego.SyscallN
// (send), without the reflection of objc's variadic Send.

// mtlSize is MTLSize: three NSUIntegers.
type mtlSize struct {
	_             structs.HostLayout
	Width, Height uint64
	Depth         uint64
}

const (
	nsUTF8StringEncoding = 4
	// MTLResourceStorageModeShared | MTLResourceCPUCacheModeDefaultCache:
	// memory the CPU and GPU share (Apple GPUs have no other).
	resourceShared = 0
	// MTLCommandBufferStatusError.
	commandBufferError = 5
)

var (
	loadOnce sync.Once
	loadErr  error

	// msgSend is objc_msgSend; dispatchThreadgroups is it typed for
	// dispatchThreadgroups:threadsPerThreadgroup:, whose MTLSize arguments
	// purego passes by each architecture's rules.
	msgSend              uintptr
	dispatchThreadgroups func(enc objc.ID, s objc.SEL, groups, threads mtlSize)

	createSystemDefaultDevice func() objc.ID
	copyAllDevices            func() objc.ID
	poolPush                  func() uintptr
	poolPop                   func(uintptr)

	classNSString          objc.Class
	classMTLCompileOptions objc.Class

	sel = struct {
		alloc, init, release, retain                              objc.SEL
		initWithBytes, utf8String, localizedDescription           objc.SEL
		count, objectAtIndex                                      objc.SEL
		name, supportsFamily, maxBufferLength, newCommandQueue    objc.SEL
		newBufferWithLength, newBufferWithBytesNoCopy, contents   objc.SEL
		setFastMathEnabled, newLibraryWithSource, newFunction     objc.SEL
		newPipeline, maxThreads                                   objc.SEL
		commandBuffer, computeCommandEncoder, setPipelineState    objc.SEL
		setBytes, setBuffer, setThreadgroupMemoryLength, dispatch objc.SEL
		endEncoding, commit, waitUntilCompleted, status, err      objc.SEL
	}{}
)

// load opens the frameworks and looks up what the device uses.
func load() error {
	loadOnce.Do(func() {
		const fw = "/System/Library/Frameworks/"
		lib, err := purego.Dlopen(fw+"Metal.framework/Metal", purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			loadErr = fmt.Errorf("opening Metal.framework: %w", err)
			return
		}
		// A command-line program gets the default device only with
		// CoreGraphics loaded; Foundation has NSString.
		for _, f := range []string{"CoreGraphics.framework/CoreGraphics", "Foundation.framework/Foundation"} {
			if _, err := purego.Dlopen(fw+f, purego.RTLD_NOW|purego.RTLD_GLOBAL); err != nil {
				loadErr = fmt.Errorf("opening %s: %w", f, err)
				return
			}
		}
		libobjc, err := purego.Dlopen("/usr/lib/libobjc.A.dylib", purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			loadErr = fmt.Errorf("opening libobjc: %w", err)
			return
		}
		purego.RegisterLibFunc(&createSystemDefaultDevice, lib, "MTLCreateSystemDefaultDevice")
		purego.RegisterLibFunc(&copyAllDevices, lib, "MTLCopyAllDevices")
		if msgSend, err = purego.Dlsym(libobjc, "objc_msgSend"); err != nil {
			loadErr = fmt.Errorf("libobjc: %w", err)
			return
		}
		purego.RegisterFunc(&dispatchThreadgroups, msgSend)
		purego.RegisterLibFunc(&poolPush, libobjc, "objc_autoreleasePoolPush")
		purego.RegisterLibFunc(&poolPop, libobjc, "objc_autoreleasePoolPop")
		classNSString = objc.GetClass("NSString")
		classMTLCompileOptions = objc.GetClass("MTLCompileOptions")
		if classNSString == 0 || classMTLCompileOptions == 0 {
			loadErr = errors.New("the Objective-C classes NSString and MTLCompileOptions are missing")
			return
		}
		r := objc.RegisterName
		s := &sel
		s.alloc, s.init, s.release, s.retain = r("alloc"), r("init"), r("release"), r("retain")
		s.initWithBytes, s.utf8String, s.localizedDescription = r("initWithBytes:length:encoding:"), r("UTF8String"), r("localizedDescription")
		s.count, s.objectAtIndex = r("count"), r("objectAtIndex:")
		s.name, s.supportsFamily, s.maxBufferLength, s.newCommandQueue = r("name"), r("supportsFamily:"), r("maxBufferLength"), r("newCommandQueue")
		s.newBufferWithLength, s.newBufferWithBytesNoCopy, s.contents = r("newBufferWithLength:options:"), r("newBufferWithBytesNoCopy:length:options:deallocator:"), r("contents")
		s.setFastMathEnabled, s.newLibraryWithSource, s.newFunction = r("setFastMathEnabled:"), r("newLibraryWithSource:options:error:"), r("newFunctionWithName:")
		s.newPipeline, s.maxThreads = r("newComputePipelineStateWithFunction:error:"), r("maxTotalThreadsPerThreadgroup")
		s.commandBuffer, s.computeCommandEncoder, s.setPipelineState = r("commandBuffer"), r("computeCommandEncoder"), r("setComputePipelineState:")
		s.setBytes, s.setBuffer, s.setThreadgroupMemoryLength = r("setBytes:length:atIndex:"), r("setBuffer:offset:atIndex:"), r("setThreadgroupMemoryLength:atIndex:")
		s.dispatch = r("dispatchThreadgroups:threadsPerThreadgroup:")
		s.endEncoding, s.commit, s.waitUntilCompleted, s.status, s.err = r("endEncoding"), r("commit"), r("waitUntilCompleted"), r("status"), r("error")
	})
	return loadErr
}

// autoreleased starts an autorelease pool for the objects Metal hands out
// without an owner, on a thread of its own (a pool belongs to a thread);
// calling the function it returns drains it.
func autoreleased() func() {
	runtime.LockOSThread()
	pool := poolPush()
	return func() {
		poolPop(pool)
		runtime.UnlockOSThread()
	}
}

// send sends an object a message of integer and pointer arguments and no
// result worth reading.
func send(id objc.ID, s objc.SEL, args ...uintptr) {
	var a [4]uintptr
	copy(a[:], args)
	purego.SyscallN(msgSend, uintptr(id), uintptr(s), a[0], a[1], a[2], a[3])
}

// nsString makes an NSString (owned: release it) of s.
func nsString(s string) objc.ID {
	b := []byte(s)
	if len(b) == 0 {
		b = []byte{0}
	}
	str := objc.ID(classNSString).Send(sel.alloc).Send(sel.initWithBytes, unsafe.Pointer(&b[0]), uint64(len(s)), uint64(nsUTF8StringEncoding))
	runtime.KeepAlive(b)
	return str
}

// goString is the text of an NSString.
func goString(s objc.ID) string {
	if s == 0 {
		return ""
	}
	return objc.Send[string](s, sel.utf8String)
}

// errorText is an NSError's description.
func errorText(e objc.ID) string {
	if e == 0 {
		return "unknown error"
	}
	return goString(e.Send(sel.localizedDescription))
}

// mtlDevice is a Metal device and its command queue.
type mtlDevice struct {
	dev, queue objc.ID
	devName    string
	feat       msl.Features
	fam        string
	maxLen     int
	// last is the last command buffer committed (retained), which wait
	// waits for: the queue runs them in order.
	last objc.ID
}

// openDevice opens the system's default Metal device (the first of all
// devices where a process without a window session has no default).
func openDevice() (*mtlDevice, error) {
	if err := load(); err != nil {
		return nil, fmt.Errorf("metal: %w", err)
	}
	defer autoreleased()()
	dev := createSystemDefaultDevice()
	if dev == 0 {
		all := copyAllDevices()
		if all != 0 && objc.Send[uint64](all, sel.count) > 0 {
			dev = all.Send(sel.objectAtIndex, uint64(0)).Send(sel.retain)
		}
		if all != 0 {
			all.Send(sel.release)
		}
	}
	if dev == 0 {
		return nil, errors.New("metal: no Metal device")
	}
	d := &mtlDevice{dev: dev, devName: goString(dev.Send(sel.name)), maxLen: int(objc.Send[uint64](dev, sel.maxBufferLength))}
	supports := func(f int64) bool { return objc.Send[bool](dev, sel.supportsFamily, f) }
	d.fam = familyName(supports)
	d.feat = deviceFeatures(supports, d.compiles)
	d.queue = dev.Send(sel.newCommandQueue)
	if d.queue == 0 {
		dev.Send(sel.release)
		return nil, errors.New("metal: no command queue")
	}
	return d, nil
}

func (d *mtlDevice) name() string           { return d.devName }
func (d *mtlDevice) family() string         { return d.fam }
func (d *mtlDevice) features() msl.Features { return d.feat }
func (d *mtlDevice) maxBuffer() int         { return d.maxLen }

// compiles reports whether the device builds a pipeline of src's kernel
// probe: the Metal compiler's front end may take what the device's own
// compiler, which makes the pipeline, refuses.
func (d *mtlDevice) compiles(src string) bool {
	p, err := d.pipeline(src, &msl.Kernel{Name: "probe", Threads: 32})
	if err != nil {
		return false
	}
	p.release()
	return true
}

// mtlMem is an MTLBuffer and the host's view of it: b from the buffer's
// first byte, or for a wrapped weight b from byte at (data's first).
type mtlMem struct {
	buf objc.ID
	b   []byte
	at  int
}

func (m *mtlMem) host(off int) []byte { return m.b[off-m.at:] }
func (m *mtlMem) release() {
	if m.buf != 0 {
		m.buf.Send(sel.release)
		m.buf, m.b = 0, nil
	}
}

func (d *mtlDevice) alloc(n int) (memory, error) {
	buf := d.dev.Send(sel.newBufferWithLength, uint64(n), uint64(resourceShared))
	if buf == 0 {
		return nil, fmt.Errorf("no buffer of %d bytes", n)
	}
	m := &mtlMem{buf: buf, b: unsafe.Slice((*byte)(objc.Send[unsafe.Pointer](buf, sel.contents)), n)}
	clear(m.b)
	return m, nil
}

// wrap makes a buffer of data's whole pages, which Metal takes without a
// copy (newBufferWithBytesNoCopy wants a page-aligned start and length).
func (d *mtlDevice) wrap(data []byte) (memory, int, error) {
	if len(data) == 0 {
		return nil, 0, errors.New("wrapping no bytes")
	}
	off := int(uintptr(unsafe.Pointer(&data[0])) % uintptr(pageSize))
	n := (off + len(data) + pageSize - 1) &^ (pageSize - 1)
	// The pages' first byte only as an address: see device.wrap.
	base := uintptr(unsafe.Pointer(&data[0])) - uintptr(off)
	buf := d.dev.Send(sel.newBufferWithBytesNoCopy, base, uint64(n), uint64(resourceShared), uintptr(0))
	if buf == 0 {
		return nil, 0, fmt.Errorf("Metal refused to wrap %d bytes of pages", n)
	}
	return &mtlMem{buf: buf, b: data, at: off}, off, nil
}

// mtlPipe is a compute pipeline state.
type mtlPipe struct{ pso objc.ID }

func (p *mtlPipe) release() {
	if p.pso != 0 {
		p.pso.Send(sel.release)
		p.pso = 0
	}
}

// pipeline compiles a kernel's source into a library of its own, with
// fast math off: the kernels follow the CPU's float32 arithmetic.
func (d *mtlDevice) pipeline(src string, k *msl.Kernel) (pipeline, error) {
	defer autoreleased()()
	text := nsString(src)
	defer text.Send(sel.release)
	opts := objc.ID(classMTLCompileOptions).Send(sel.alloc).Send(sel.init)
	defer opts.Send(sel.release)
	opts.Send(sel.setFastMathEnabled, false)
	var nserr objc.ID
	lib := d.dev.Send(sel.newLibraryWithSource, text, opts, unsafe.Pointer(&nserr))
	if lib == 0 {
		return nil, fmt.Errorf("the Metal compiler: %s", errorText(nserr))
	}
	defer lib.Send(sel.release)
	fname := nsString(k.Name)
	defer fname.Send(sel.release)
	fn := lib.Send(sel.newFunction, fname)
	if fn == 0 {
		return nil, fmt.Errorf("the library has no function %s", k.Name)
	}
	defer fn.Send(sel.release)
	nserr = 0
	pso := d.dev.Send(sel.newPipeline, fn, unsafe.Pointer(&nserr))
	if pso == 0 {
		return nil, fmt.Errorf("pipeline of %s: %s", k.Name, errorText(nserr))
	}
	if most := objc.Send[uint64](pso, sel.maxThreads); most < uint64(k.Threads) {
		pso.Send(sel.release)
		return nil, fmt.Errorf("%s takes threadgroups of %d threads; this device runs at most %d", k.Name, k.Threads, most)
	}
	return &mtlPipe{pso: pso}, nil
}

// run encodes every command into one compute encoder of one command
// buffer and commits it. The encoder dispatches serially, so each
// dispatch sees what the ones before it wrote.
func (d *mtlDevice) run(cmds []*command, step []byte) error {
	defer autoreleased()()
	cb := d.queue.Send(sel.commandBuffer)
	if cb == 0 {
		return errors.New("no command buffer")
	}
	enc := cb.Send(sel.computeCommandEncoder)
	if enc == 0 {
		return errors.New("no compute encoder")
	}
	var last objc.ID
	stepAt := uintptr(unsafe.Pointer(&step[0]))
	for _, c := range cmds {
		pso := c.pipe.(*mtlPipe).pso
		if pso != last {
			send(enc, sel.setPipelineState, uintptr(pso))
			last = pso
		}
		// The parameters live as long as the program (c), the step as long
		// as this call: both outlast their setBytes, which copies them.
		send(enc, sel.setBytes, uintptr(unsafe.Pointer(&c.params[0])), uintptr(len(c.params)), 0)
		if c.step {
			send(enc, sel.setBytes, stepAt, uintptr(len(step)), 1)
		}
		for i, a := range c.args {
			send(enc, sel.setBuffer, uintptr(a.mem.(*mtlMem).buf), uintptr(a.off), uintptr(2+i))
		}
		for i, n := range c.k.Threadgroup {
			send(enc, sel.setThreadgroupMemoryLength, uintptr(n), uintptr(i))
		}
		dispatchThreadgroups(enc, sel.dispatch, mtlSize{Width: uint64(c.groups), Height: 1, Depth: 1}, mtlSize{Width: uint64(c.k.Threads), Height: 1, Depth: 1})
	}
	runtime.KeepAlive(step)
	enc.Send(sel.endEncoding)
	cb.Send(sel.commit)
	if d.last != 0 {
		d.last.Send(sel.release)
	}
	d.last = cb.Send(sel.retain)
	return nil
}

// wait waits for the last command buffer, the queue's work before it
// done too, and reports whether it failed.
func (d *mtlDevice) wait() error {
	if d.last == 0 {
		return nil
	}
	cb := d.last
	d.last = 0
	defer cb.Send(sel.release)
	cb.Send(sel.waitUntilCompleted)
	if objc.Send[uint64](cb, sel.status) == commandBufferError {
		return fmt.Errorf("metal: a command buffer failed: %s", errorText(cb.Send(sel.err)))
	}
	return nil
}

func (d *mtlDevice) close() {
	d.wait()
	d.queue.Send(sel.release)
	d.dev.Send(sel.release)
}
