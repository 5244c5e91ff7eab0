//go:build js && wasm

package main

import "syscall/js"

// promise runs f on a goroutine of its own and returns a Promise of its
// result: the WebGPU backend waits on promises that the JS event loop can
// only resolve once the call into Go has returned, so nothing that may
// wait runs inside the call itself.
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

// reject is a Promise rejected with err's message.
func reject(err error) js.Value {
	return js.Global().Get("Promise").Call("reject", js.Global().Get("Error").New(err.Error()))
}

// resolved is a Promise of v.
func resolved(v any) js.Value { return js.Global().Get("Promise").Call("resolve", v) }
