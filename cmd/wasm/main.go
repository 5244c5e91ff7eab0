//go:build js && wasm

// Command wasm is ember's engine in the browser (GOOS=js GOARCH=wasm): the
// native build's engine, tokenizer, chat templates, thinking split and
// sampler, on the browser's WebGPU, or on the CPU backend where a tab has
// no WebGPU. web/worker.js runs it in a dedicated Web Worker, so the page
// stays responsive, and calls the functions it exports as
// globalThis.emberEngine (api.go). Model files are read through a JS object
// with synchronous reads (source.go): the origin-private file system, a
// file the user picked, or HTTP range requests, so a model streams into the
// backend a piece at a time and never sits whole in the 32-bit wasm heap.
package main

import "syscall/js"

func main() {
	js.Global().Set("emberEngine", newAPI().object())
	select {}
}
