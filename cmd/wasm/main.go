//go:build js && wasm

// Command wasm is ember's browser entry point (GOOS=js GOARCH=wasm): the same
// engine, driven from the demo page in web/.
package main

import "github.com/emberllm/ember/engine/gguf"

// The page talks to the engine through exported JavaScript functions; until
// the engine lands this only proves the packages build for the browser.
var _ = gguf.DefaultAlignment

func main() {
	select {}
}
