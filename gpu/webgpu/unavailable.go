//go:build !cgo && !js

package webgpu

import (
	"errors"

	"github.com/emberllm/ember/gpu"
)

// Open reports that this build has no WebGPU: the native backend needs cgo
// (it links wgpu-native); only the browser build (js) needs none.
func Open(Options) (gpu.Backend, error) {
	return nil, errors.New("webgpu: not available in this build (native WebGPU needs a cgo build with gcc)")
}
