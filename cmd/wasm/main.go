//go:build js && wasm

// Command wasm is ember's browser entry point (GOOS=js GOARCH=wasm): the same
// engine, driven from the demo page in web/.
//
// Until the page lands it exports one function, globalThis.ember.webgpu(),
// which opens the browser's WebGPU through ember's backend, runs a small
// product and residual add on it and resolves to {adapter, kernels,
// maxError} (the largest difference from the same sums on the host), or
// rejects with the error. The page must set globalThis.wasm to the module's instantiation
// result before running it (the WebGPU binding writes buffers through it).
package main

import (
	"encoding/binary"
	"math"
	"strings"
	"syscall/js"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

func main() {
	js.Global().Set("ember", js.ValueOf(map[string]any{
		"webgpu": js.FuncOf(func(js.Value, []js.Value) any { return promise(webgpuCheck) }),
	}))
	select {}
}

// promise runs f on a goroutine of its own, since the WebGPU backend waits
// on promises that the JS event loop can only resolve once this callback
// has returned.
func promise(f func() (any, error)) js.Value {
	var resolve, reject js.Value
	executor := js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject = args[0], args[1]
		return nil
	})
	defer executor.Release()
	p := js.Global().Get("Promise").New(executor)
	go func() {
		v, err := f()
		if err != nil {
			reject.Invoke(js.Global().Get("Error").New(err.Error()))
			return
		}
		resolve.Invoke(v)
	}()
	return p
}

// webgpuCheck computes z = W·x + r for a small F32 matrix and two columns
// on the device (one kernel: the add is the product's epilogue) and
// compares with the host.
func webgpuCheck() (any, error) {
	be, err := webgpu.Open(webgpu.Options{})
	if err != nil {
		return nil, err
	}
	defer be.Close()
	var desc strings.Builder
	if d, ok := be.(gpu.Describer); ok {
		d.Describe(&desc)
	}
	const K, N, T = 96, 24, 2
	w := make([]float32, K*N)
	x := make([]float32, K*T)
	r := make([]float32, N*T)
	for i := range r {
		r[i] = float32(i%7) - 3
	}
	for i := range w {
		w[i] = float32(math.Sin(float64(i)*0.37)) * 0.5
	}
	for i := range x {
		x[i] = float32(math.Cos(float64(i)*0.11)) + 0.25
	}
	wb, err := be.Weight("w", gguf.F32, gpu.Shape4(K, N), f32bytes(w))
	if err != nil {
		return nil, err
	}
	xb, err := be.Alloc("x", gguf.F32, gpu.Shape4(K, T))
	if err != nil {
		return nil, err
	}
	rb, err := be.Alloc("r", gguf.F32, gpu.Shape4(N, T))
	if err != nil {
		return nil, err
	}
	zb, err := be.Alloc("z", gguf.F32, gpu.Shape4(N, T))
	if err != nil {
		return nil, err
	}
	if err := xb.Write(0, f32bytes(x)); err != nil {
		return nil, err
	}
	if err := rb.Write(0, f32bytes(r)); err != nil {
		return nil, err
	}
	g := gpu.NewGraph("check", T)
	y := g.New("y", gguf.F32, N, T)
	g.Do(&gpu.MatMul{W: g.Bind("w", wb), In: g.Bind("x", xb), Out: y})
	g.Do(&gpu.Add{A: y, B: g.Bind("r", rb), Out: g.Bind("z", zb)})
	prog, err := be.Compile(g)
	if err != nil {
		return nil, err
	}
	if err := prog.Run(gpu.Params{}); err != nil {
		return nil, err
	}
	raw := make([]byte, 4*N*T)
	if err := zb.Read(0, raw); err != nil {
		return nil, err
	}
	worst := 0.0
	for t := range T {
		for n := range N {
			want := float64(r[t*N+n])
			for k := range K {
				want += float64(w[n*K+k]) * float64(x[t*K+k])
			}
			got := float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*(t*N+n):])))
			worst = max(worst, math.Abs(got-want))
		}
	}
	adapter := be.Name()
	if desc.Len() > 0 {
		adapter = strings.TrimSpace(desc.String())
	}
	return map[string]any{"adapter": adapter, "kernels": prog.Kernels(), "maxError": worst}, nil
}

func f32bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}
