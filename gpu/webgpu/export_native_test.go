//go:build cgo && !js

package webgpu

import "github.com/emberllm/ember/gpu"

// KernelTimes runs p once, timing each kernel on the device
// (Backend.kernelTimes).
func KernelTimes(be gpu.Backend, p gpu.Program, params gpu.Params) ([]KernelTime, error) {
	return be.(*Backend).kernelTimes(p.(*program), params)
}
