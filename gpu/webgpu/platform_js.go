//go:build js

package webgpu

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"syscall/js"
	"unsafe"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// In the browser every WebGPU request that waits (adapter, device, mapping
// a buffer, pipeline creation, error scopes) is a promise resolved by the
// JS event loop. Go's js/wasm runtime returns to that loop whenever every
// goroutine is blocked, so this file waits on promises by blocking on a
// channel. Callers must therefore use the backend from a goroutine of their
// own, never from inside a js.Func callback, where the loop cannot run and
// the wait would never end.

// Open opens the browser's WebGPU device (navigator.gpu) with the limits
// and features ember uses, as the native Open does. The binding library's
// own device request passes neither (it drops the limits and sends features
// as numbers), so the request is made here.
func Open(o Options) (gpu.Backend, error) {
	nav := js.Global().Get("navigator").Get("gpu")
	if !nav.Truthy() {
		return nil, errors.New("webgpu: this browser has no WebGPU (navigator.gpu is missing; Chromium needs a secure context or --enable-unsafe-webgpu)")
	}
	// The library's Queue.WriteBuffer reads Go's memory through the global
	// the page sets to the instantiation result of the wasm module.
	if w := js.Global().Get("wasm"); !w.Truthy() || !w.Get("instance").Truthy() {
		return nil, errors.New("webgpu: the page must set globalThis.wasm to the result of WebAssembly.instantiate(Streaming) of this module (the WebGPU binding writes buffers through it)")
	}
	ad, err := await(nav.Call("requestAdapter", map[string]any{
		"powerPreference":      "high-performance",
		"forceFallbackAdapter": o.ForceFallback,
	}))
	if err != nil {
		return nil, fmt.Errorf("webgpu: the browser gives no WebGPU adapter: %v", err)
	}
	if !ad.Truthy() {
		// requestAdapter resolves to null where WebGPU is switched off or
		// the GPU is blocklisted (headless Chromium on Linux without
		// --enable-unsafe-webgpu).
		return nil, errors.New("webgpu: the browser gives no WebGPU adapter: WebGPU is off, or this GPU is not supported")
	}
	b := &Backend{inst: wrap[wgpu.Instance](nav), adapter: wrap[wgpu.Adapter](ad), info: adapterInfo(ad.Get("info")), pipelines: map[string]*pipeline{}, sources: map[string]*kernelSource{}}
	b.limits = wantLimits(b.adapter.GetLimits())
	var feats []any
	has := ad.Get("features")
	if has.Call("has", "shader-f16").Bool() {
		b.f16 = true
		feats = append(feats, "shader-f16")
	}
	// Ember's reductions read subgroup_id and num_subgroups, which browsers
	// offer only with the WGSL language feature of that name besides the
	// device feature.
	wgslFeats := nav.Get("wgslLanguageFeatures")
	if has.Call("has", "subgroups").Bool() && !o.NoSubgroups && wgslFeats.Truthy() && wgslFeats.Call("has", "subgroup_id").Bool() {
		b.subgroups = true
		feats = append(feats, "subgroups")
	}
	lim := b.limits
	dev, err := await(ad.Call("requestDevice", map[string]any{
		"label":            "ember",
		"requiredFeatures": feats,
		"requiredLimits": map[string]any{
			"maxStorageBufferBindingSize":       lim.MaxStorageBufferBindingSize,
			"maxBufferSize":                     lim.MaxBufferSize,
			"maxStorageBuffersPerShaderStage":   lim.MaxStorageBuffersPerShaderStage,
			"maxComputeWorkgroupStorageSize":    lim.MaxComputeWorkgroupStorageSize,
			"maxComputeInvocationsPerWorkgroup": lim.MaxComputeInvocationsPerWorkgroup,
			"maxComputeWorkgroupSizeX":          lim.MaxComputeWorkgroupSizeX,
		},
	}))
	if err != nil || !dev.Truthy() {
		return nil, fmt.Errorf("webgpu: opening %s: %v", b.info.Device, err)
	}
	b.dev = wrap[wgpu.Device](dev)
	b.queue = b.dev.GetQueue()
	pushScopes(dev)
	b.watchLost(dev)
	return b, nil
}

// watchLost records why the browser takes the device away (a GPU process
// that crashed or was reset, a driver update, the tab's GPU memory
// reclaimed), so that the next wait says so: a lost device's calls fail
// silently and its error scopes report nothing.
func (b *Backend) watchLost(dev js.Value) {
	var f js.Func
	f = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer f.Release()
		why := "no reason given"
		if len(args) > 0 && args[0].Truthy() {
			if m := args[0].Get("message"); m.Type() == js.TypeString && m.String() != "" {
				why = m.String()
			}
		}
		b.lost.Store(&why)
		return nil
	})
	dev.Get("lost").Call("then", f)
}

// lostError is the error of a lost device, or nil.
func (b *Backend) lostError() error {
	if why := b.lost.Load(); why != nil && !b.closed {
		return fmt.Errorf("webgpu: the GPU device was lost (%s)", *why)
	}
	return nil
}

// adapterInfo fills the native library's adapter description from the
// browser's GPUAdapterInfo, which has no adapter type: a fallback adapter
// (SwiftShader) counts as the CPU.
func adapterInfo(i js.Value) wgpu.AdapterInfo {
	str := func(k string) string {
		if v := i.Get(k); v.Type() == js.TypeString {
			return v.String()
		}
		return ""
	}
	info := wgpu.AdapterInfo{Vendor: str("vendor"), Architecture: str("architecture"), Device: str("device"), Description: str("description"),
		BackendType: wgpu.BackendTypeWebGPU, AdapterType: wgpu.AdapterTypeUnknown}
	if i.Get("isFallbackAdapter").Truthy() || strings.Contains(strings.ToLower(info.Architecture+info.Description), "swiftshader") {
		info.AdapterType = wgpu.AdapterTypeCPU
	}
	// Browsers often leave device empty to limit fingerprinting; Name
	// shows it, so take the most specific field there is.
	for _, s := range []string{info.Description, info.Architecture, info.Vendor, "browser"} {
		if info.Device != "" {
			break
		}
		info.Device = s
	}
	return info
}

// The browser reports validation and allocation errors of every call
// asynchronously, not as results of the calls. The device always has these
// two error scopes open; wait and mapRead close them, turning what went
// wrong since into an error, and open new ones.
func pushScopes(dev js.Value) {
	dev.Call("pushErrorScope", "validation")
	dev.Call("pushErrorScope", "out-of-memory")
}

// deviceError returns the first error the device reported since the last
// call.
func (b *Backend) deviceError() error {
	dev := jsOf(b.dev)
	var errs []string
	// Scopes pop in reverse: out-of-memory, then validation. An
	// allocation's message need not say what failed (Dawn's rarely names
	// memory), so the scope it came from does.
	for _, scope := range []string{"out of memory: ", ""} {
		e, err := await(dev.Call("popErrorScope"))
		if err != nil {
			errs = append(errs, err.Error())
		} else if e.Truthy() {
			errs = append(errs, scope+e.Get("message").String())
		}
	}
	pushScopes(dev)
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// wait blocks until the device has finished the work submitted so far.
func (b *Backend) wait() error {
	if err := b.lostError(); err != nil {
		return err
	}
	if _, err := await(jsOf(b.queue).Call("onSubmittedWorkDone")); err != nil {
		return fmt.Errorf("webgpu: %w", err)
	}
	if err := b.lostError(); err != nil {
		return err
	}
	if err := b.deviceError(); err != nil {
		return fmt.Errorf("webgpu: %w", err)
	}
	return nil
}

// newPipeline compiles a kernel's WGSL. Browsers, unlike naga, need the
// optional features a shader may use enabled in its source. The pipeline is
// made asynchronously so that a kernel that does not compile fails here,
// with the compiler's messages, rather than at the next readback.
func (b *Backend) newPipeline(label, src string) (*wgpu.ComputePipeline, error) {
	var head strings.Builder
	if b.f16 {
		head.WriteString("enable f16;\n")
	}
	if b.subgroups {
		head.WriteString("enable subgroups;\n")
	}
	dev := jsOf(b.dev)
	mod := dev.Call("createShaderModule", map[string]any{"label": label, "code": head.String() + src})
	p, err := await(dev.Call("createComputePipelineAsync", map[string]any{
		"label":   label,
		"layout":  "auto",
		"compute": map[string]any{"module": mod, "entryPoint": "main"},
	}))
	if err != nil {
		return nil, fmt.Errorf("%w%s", err, compileMessages(mod))
	}
	return wrap[wgpu.ComputePipeline](p), nil
}

// compileMessages lists a shader module's errors, with the line numbers of
// the assembled source.
func compileMessages(mod js.Value) string {
	info, err := await(mod.Call("getCompilationInfo"))
	if err != nil {
		return ""
	}
	var b strings.Builder
	msgs := info.Get("messages")
	for i := range msgs.Length() {
		m := msgs.Index(i)
		if m.Get("type").String() != "error" {
			continue
		}
		fmt.Fprintf(&b, "\n  line %d:%d: %s", m.Get("lineNum").Int(), m.Get("linePos").Int(), m.Get("message").String())
	}
	return b.String()
}

// mapRead maps the first n bytes of a map-read buffer whose copy has been
// submitted, and reports what went wrong in the work before it: in the
// browser a failed command leaves the buffer's old bytes, not an error.
// The browser resolves the map when the copy's submission is done, so
// upTo (which submission to wait for, native) is not needed here.
func (b *Backend) mapRead(stage *wgpu.Buffer, n uint64, _ *wgpu.SubmissionIndex) error {
	s := jsOf(stage)
	const mapRead = 1 // GPUMapMode.READ
	_, err := await(s.Call("mapAsync", mapRead, 0, n))
	if lerr := b.lostError(); lerr != nil {
		return lerr
	}
	if derr := b.deviceError(); derr != nil {
		if err == nil {
			s.Call("unmap")
		}
		return derr
	}
	return err
}

// releaseDevice destroys the device: the browser frees an object only when
// it is collected, and a device's memory with it only when it is destroyed.
func (b *Backend) releaseDevice() {
	jsOf(b.dev).Call("destroy")
}

// await blocks the calling goroutine until promise p settles. A value that
// is not a promise is its own result.
func await(p js.Value) (js.Value, error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return p, nil
	}
	type settled struct {
		v  js.Value
		ok bool
	}
	ch := make(chan settled, 1)
	resolve := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{arg0(args), true}
		return nil
	})
	defer resolve.Release()
	reject := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- settled{arg0(args), false}
		return nil
	})
	defer reject.Release()
	p.Call("then", resolve, reject)
	r := <-ch
	if !r.ok {
		return js.Undefined(), jsError(r.v)
	}
	return r.v, nil
}

func arg0(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// jsError is a rejected promise's reason as a Go error.
func jsError(v js.Value) error {
	if v.Type() == js.TypeObject && v.Get("message").Type() == js.TypeString {
		return errors.New(v.Get("message").String())
	}
	if v.Type() == js.TypeObject {
		return errors.New(v.Call("toString").String())
	}
	return fmt.Errorf("%v", v)
}

// The binding library keeps each browser object's JS value in the only
// field of an unexported struct and makes none from a JS value, while
// ember needs the browser API the library leaves out (device limits and
// features, error scopes, asynchronous pipelines). jsOf and wrap reach that
// field after checking that the type is laid out so.

func jsOf[T any](p *T) js.Value {
	mustHoldJS[T]()
	return *(*js.Value)(unsafe.Pointer(p))
}

func wrap[T any](v js.Value) *T {
	mustHoldJS[T]()
	p := new(T)
	*(*js.Value)(unsafe.Pointer(p)) = v
	return p
}

func mustHoldJS[T any]() {
	t := reflect.TypeFor[T]()
	if t.Kind() != reflect.Struct || t.NumField() != 1 || t.Field(0).Type != reflect.TypeFor[js.Value]() {
		panic(fmt.Sprintf("webgpu: %v is not a struct of one js.Value: the binding library changed its layout", t))
	}
}
