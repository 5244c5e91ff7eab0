//go:build js && wasm

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/registry"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/webgpu"
	"github.com/emberllm/ember/server/wire"
)

// The functions of globalThis.emberEngine. Structured values cross as
// JSON strings; requests and events are the WebSocket protocol's messages
// (docs/protocol.md), so the worker relays a server's requests to the
// engine, and the page speaks to the engine in a tab as to a server:
//
//	load(source, optionsJSON, onProgress(loaded, total)) -> Promise<infoJSON>
//	generate(messageJSON, onEvent(eventJSON)) -> Promise<finalEventJSON>
//	cancel(id)
//	unload() -> Promise
//	evaluate(idsJSON, n, forcedJSON) -> Promise<{"logits": [...], "next": [...]}>
//	tokenize(text) -> idsJSON
//	registry() -> JSON [{name, url, size, about}]
//
// Promises reject with an Error whose message is meant for a person.

// api is the engine the worker holds: one model, one session, one
// generation at a time (later requests wait their turn).
type api struct {
	mu   sync.Mutex
	eng  *engine.Engine
	sess *engine.Session
	info info
	// turn is held by the generation running; running maps request ids
	// to their cancel functions, queued or running.
	turn    chan struct{}
	running map[string]context.CancelFunc
}

func newAPI() *api {
	return &api{turn: make(chan struct{}, 1), running: map[string]context.CancelFunc{}}
}

func (a *api) object() js.Value {
	fn := func(f func(args []js.Value) any) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any { return f(args) })
	}
	return js.ValueOf(map[string]any{
		"load":     fn(a.load),
		"generate": fn(a.generate),
		"cancel":   fn(a.cancel),
		"unload":   fn(func([]js.Value) any { return promise(func() (any, error) { return nil, a.unload() }) }),
		"evaluate": fn(a.evaluate),
		"tokenize": fn(a.tokenize),
		"registry": fn(func([]js.Value) any { return registryJSON() }),
	})
}

// loadOptions are load's options.
type loadOptions struct {
	// Backend is auto (WebGPU where the browser has it, else the CPU),
	// webgpu or cpu.
	Backend string `json:"backend"`
	// Context is the KV cache's positions (0: engine.DefaultContext,
	// capped by the model's).
	Context int `json:"context"`
	// Name is the model's name in the engine's answers (a registry name,
	// a file name).
	Name string `json:"name"`
}

// info describes the loaded model and where it runs.
type info struct {
	Model       string  `json:"model"`
	Arch        string  `json:"arch"`
	Layers      int     `json:"layers"`
	Context     int     `json:"context"`
	Vocab       int     `json:"vocab"`
	WeightBytes int64   `json:"weight_bytes"`
	Thinking    bool    `json:"thinking"`
	Backend     string  `json:"backend"` // "webgpu" or "cpu"
	Adapter     string  `json:"adapter"`
	Notice      string  `json:"notice,omitempty"`
	LoadMs      float64 `json:"load_ms"`
}

// cpuLimit is the most weight bytes the CPU backend takes in a tab: its
// weights live in the wasm heap, which a browser holds to 4 GiB, with
// room left for the KV cache, activations and the runtime.
const cpuLimit = 2 << 30

func (a *api) load(args []js.Value) any {
	if len(args) < 1 {
		return reject(errors.New("load needs a model source"))
	}
	src := args[0]
	var opts loadOptions
	if len(args) > 1 && args[1].Type() == js.TypeString {
		if err := json.Unmarshal([]byte(args[1].String()), &opts); err != nil {
			return reject(fmt.Errorf("load options: %v", err))
		}
	}
	var onProgress js.Value
	if len(args) > 2 && args[2].Type() == js.TypeFunction {
		onProgress = args[2]
	}
	return promise(func() (any, error) {
		if err := a.unload(); err != nil {
			return nil, err
		}
		f, err := newJSFile(src)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		r, err := gguf.NewReader(f, f.size)
		if err != nil {
			return nil, fmt.Errorf("%s is not a GGUF model file ember can read: %v", f.name, err)
		}
		var total int64
		for _, t := range r.Tensors {
			total += int64(t.Size)
		}
		be, notice, err := openBackend(opts.Backend, total)
		if err != nil {
			return nil, err
		}
		eo := engine.Options{Backend: be, Context: opts.Context}
		if onProgress.Truthy() {
			eo.Progress = func(done, total int64) { onProgress.Invoke(float64(done), float64(total)) }
		}
		e, err := engine.New(r, eo)
		if err != nil {
			be.Close()
			return nil, explainLoad(f.name, err)
		}
		sess, err := e.NewSession()
		if err != nil {
			e.Close()
			return nil, explainLoad(f.name, err)
		}
		c := e.Model.Config
		in := info{Model: opts.Name, Arch: c.Arch, Layers: c.Layers, Context: e.Context, Vocab: c.Vocab,
			WeightBytes: e.Model.WeightBytes, Thinking: e.Chat.SupportsThinking(), Notice: notice,
			LoadMs: float64(time.Since(start).Microseconds()) / 1000}
		if in.Model == "" {
			in.Model = f.name
		}
		in.Backend, in.Adapter = "cpu", be.Name()
		if d, ok := be.(gpu.Describer); ok {
			var sb strings.Builder
			d.Describe(&sb)
			in.Backend, in.Adapter = "webgpu", strings.TrimSpace(sb.String())
		}
		a.mu.Lock()
		a.eng, a.sess, a.info = e, sess, in
		a.mu.Unlock()
		return toJSON(in), nil
	})
}

// openBackend opens the backend name asks for; auto falls back to the CPU,
// saying why in the notice, where the browser has no WebGPU. total is the
// model's weight bytes, which the CPU backend must hold in the wasm heap.
func openBackend(name string, total int64) (gpu.Backend, string, error) {
	// cpuBackend opens the CPU backend; why is why WebGPU is not used
	// ("" where the CPU was asked for).
	cpuBackend := func(why string) (gpu.Backend, string, error) {
		if total > cpuLimit {
			lead := "the model's"
			if why != "" {
				lead = why + ", and the model's"
			}
			return nil, "", fmt.Errorf("%s %.1f GiB of weights do not fit the CPU engine in a browser tab, which holds at most %.0f GiB: "+
				"pick a smaller model or a browser with WebGPU", lead, float64(total)/(1<<30), float64(cpuLimit)/(1<<30))
		}
		notice := ""
		if why != "" {
			notice = why + "; running on the CPU, which is much slower."
		}
		return cpu.New(1), notice, nil
	}
	switch name {
	case "cpu":
		return cpuBackend("")
	case "webgpu", "auto", "":
		be, err := webgpu.Open(webgpu.Options{})
		if err == nil {
			return be, "", nil
		}
		if name == "webgpu" {
			return nil, "", err
		}
		return cpuBackend(fmt.Sprintf("WebGPU is not available (%s)", strings.TrimPrefix(err.Error(), "webgpu: ")))
	}
	return nil, "", fmt.Errorf("unknown backend %q (auto, webgpu or cpu)", name)
}

// explainLoad says what a failed load means for the person waiting on it.
func explainLoad(name string, err error) error {
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "out of memory"), strings.Contains(msg, "outofmemory"):
		return fmt.Errorf("%s does not fit the GPU's memory (%v): pick a smaller model or quantization", name, err)
	case lostDevice(msg):
		return fmt.Errorf("the GPU device was lost while loading %s (%v): reload the page to start again", name, err)
	}
	return fmt.Errorf("%s: %v", name, err)
}

// explainRun says what a failed generation means where the GPU is why.
func explainRun(err error) error {
	msg := strings.ToLower(err.Error())
	switch {
	case strings.Contains(msg, "out of memory"), strings.Contains(msg, "outofmemory"):
		return fmt.Errorf("the GPU ran out of memory (%v): a smaller context (?ctx=) or model may fit", err)
	case lostDevice(msg):
		return fmt.Errorf("%s: load the model again, or reload the page", strings.TrimPrefix(err.Error(), "webgpu: "))
	}
	return err
}

// lostDevice reports whether a lowercased error message says the device
// was lost (the backend's words, or the browser's).
func lostDevice(msg string) bool {
	return strings.Contains(msg, "device was lost") || strings.Contains(msg, "device lost") || strings.Contains(msg, "devicelost")
}

func (a *api) unload() error {
	a.mu.Lock()
	e, running := a.eng, len(a.running)
	if running > 0 {
		a.mu.Unlock()
		return errors.New("a generation is running: cancel it before loading another model")
	}
	a.eng, a.sess, a.info = nil, nil, info{}
	a.mu.Unlock()
	if e != nil {
		return e.Close()
	}
	return nil
}

// generate runs one protocol generate message, calling onEvent with each
// token event, and resolves to the request's final event: done (also when
// cancelled) or error, as a server would send them.
func (a *api) generate(args []js.Value) any {
	if len(args) < 1 || args[0].Type() != js.TypeString {
		return reject(errors.New("generate needs a generate message (JSON)"))
	}
	var onEvent js.Value
	if len(args) > 1 && args[1].Type() == js.TypeFunction {
		onEvent = args[1]
	}
	var m wire.Message
	dec := json.NewDecoder(strings.NewReader(args[0].String()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return resolved(toJSON(errorEvent("", 400, fmt.Errorf("bad generate message: %v", err))))
	}
	if m.Type != wire.TypeGenerate || m.ID == "" {
		return resolved(toJSON(errorEvent(m.ID, 400, errors.New("a generate message needs type generate and an id"))))
	}
	ctx, cancel := context.WithCancel(context.Background())
	a.mu.Lock()
	if _, dup := a.running[m.ID]; dup {
		a.mu.Unlock()
		cancel()
		return resolved(toJSON(errorEvent(m.ID, 400, fmt.Errorf("request %s is already in flight", m.ID))))
	}
	a.running[m.ID] = cancel
	a.mu.Unlock()
	return promise(func() (any, error) {
		defer func() {
			cancel()
			a.mu.Lock()
			delete(a.running, m.ID)
			a.mu.Unlock()
		}()
		return toJSON(a.run(ctx, m, onEvent)), nil
	})
}

// run waits its turn and generates, returning the final event.
func (a *api) run(ctx context.Context, m wire.Message, onEvent js.Value) wire.Message {
	select {
	case a.turn <- struct{}{}:
		defer func() { <-a.turn }()
	case <-ctx.Done():
		return wire.Message{Type: wire.TypeDone, ID: m.ID, Stats: &wire.GenStats{StopReason: "cancelled"}}
	}
	a.mu.Lock()
	e, sess, cpuBound := a.eng, a.sess, a.info.Backend == "cpu"
	a.mu.Unlock()
	if e == nil {
		return errorEvent(m.ID, 503, errors.New("no model is loaded"))
	}
	req, err := m.Request()
	if err == nil {
		opts := m.Options
		if opts == nil {
			opts = &wire.Options{}
		}
		err = opts.Apply(&req, e.Context, e.Tokenizer.VocabSize())
	}
	if err != nil {
		return errorEvent(m.ID, 400, err)
	}
	lastYield := time.Now()
	res, err := sess.Generate(ctx, req, func(ev engine.Event) error {
		if cpuBound && time.Since(lastYield) >= cpuYield {
			yield()
			lastYield = time.Now()
		}
		if !onEvent.Truthy() {
			return nil
		}
		out := wire.Message{Type: wire.TypeToken, ID: m.ID, Text: ev.Text, Reasoning: ev.Reasoning}
		if ev.Token >= 0 {
			out.Token = &ev.Token
		}
		onEvent.Invoke(toJSON(out))
		return nil
	})
	if err != nil && ctx.Err() == nil {
		status := 500
		var inv wire.Invalid
		if errors.As(err, &inv) || errors.Is(err, engine.ErrContextFull) {
			status = 400
		}
		return errorEvent(m.ID, status, explainRun(err))
	}
	var st wire.GenStats
	if res != nil {
		st = wire.StatsOf(res.Stats)
	}
	if ctx.Err() != nil {
		st.StopReason = "cancelled"
	}
	return wire.Message{Type: wire.TypeDone, ID: m.ID, Stats: &st}
}

// cpuYield is the longest a generation on the CPU backend keeps the
// worker's thread before it lets the browser in. Go's scheduler returns to
// the event loop only when every goroutine waits, and the CPU backend's
// steps never wait: without a pause the worker would read the page's
// cancel (the Stop button) only after the last token. WebGPU's steps wait
// on the device, which lets the browser in anyway.
const cpuYield = 50 * time.Millisecond

// yield lets the worker's event loop run: a sleep leaves no goroutine
// runnable, so the runtime returns to JavaScript until its timer fires.
// It costs a timer's delay (a few milliseconds) each cpuYield.
func yield() { time.Sleep(time.Millisecond) }

func (a *api) cancel(args []js.Value) any {
	if len(args) < 1 {
		return false
	}
	a.mu.Lock()
	c, ok := a.running[args[0].String()]
	a.mu.Unlock()
	if ok {
		c()
	}
	return ok
}

// evaluate runs a prompt and then forced tokens one at a time (teacher
// forcing), resolving to each step's logits and most likely next token:
// what the parity tests compare between the browser and native builds.
func (a *api) evaluate(args []js.Value) any {
	if len(args) < 3 {
		return reject(errors.New("evaluate needs the prompt's ids, a step count and the forced ids"))
	}
	var prompt, forced []int32
	if err := json.Unmarshal([]byte(args[0].String()), &prompt); err != nil {
		return reject(err)
	}
	n := args[1].Int()
	if err := json.Unmarshal([]byte(args[2].String()), &forced); err != nil {
		return reject(err)
	}
	return promise(func() (any, error) {
		a.turn <- struct{}{}
		defer func() { <-a.turn }()
		a.mu.Lock()
		sess := a.sess
		a.mu.Unlock()
		if sess == nil {
			return nil, errors.New("no model is loaded")
		}
		sess.Reset()
		var out struct {
			Logits [][]float32 `json:"logits"`
			Next   []int32     `json:"next"`
		}
		ids := append([]int32(nil), prompt...)
		for k := 0; k < n; k++ {
			if k > 0 {
				if k-1 >= len(forced) {
					return nil, fmt.Errorf("%d forced ids for %d steps", len(forced), n)
				}
				ids = append(ids, forced[k-1])
			}
			if err := sess.Eval(context.Background(), ids); err != nil {
				return nil, err
			}
			l, err := sess.Logits()
			if err != nil {
				return nil, err
			}
			best := int32(0)
			for i, v := range l {
				// JSON has no NaN or infinity (toJSON would panic and end
				// the worker): a broken step is an error the caller reads.
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					return nil, fmt.Errorf("step %d: logit %d is %v", k, i, v)
				}
				if v > l[best] {
					best = int32(i)
				}
			}
			out.Logits = append(out.Logits, append([]float32(nil), l...))
			out.Next = append(out.Next, best)
		}
		sess.Reset()
		return toJSON(out), nil
	})
}

func (a *api) tokenize(args []js.Value) any {
	a.mu.Lock()
	sess := a.sess
	a.mu.Unlock()
	if sess == nil || len(args) < 1 {
		return js.Null()
	}
	return toJSON(sess.Tokenize(args[0].String()))
}

// registryJSON lists the registry's models: the names a person can pick,
// and the files they stand for.
func registryJSON() string {
	type entry struct {
		Name  string `json:"name"`
		URL   string `json:"url"`
		Size  int64  `json:"size,omitempty"`
		About string `json:"about,omitempty"`
	}
	var out []entry
	for _, m := range registry.Models() {
		out = append(out, entry{m.Name, m.URL, m.Size, m.About})
	}
	return toJSON(out)
}

func errorEvent(id string, status int, err error) wire.Message {
	return wire.Message{Type: wire.TypeError, ID: id, Status: status, Error: err.Error()}
}

func toJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // the values above always marshal
	}
	return string(b)
}
