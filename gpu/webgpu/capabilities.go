//go:build cgo || js

package webgpu

import "github.com/emberllm/ember/gpu"

// The optional capabilities of gpu/capabilities.go this backend has.
var (
	_ gpu.Copier           = (*Backend)(nil)
	_ gpu.WeightCopier     = (*Backend)(nil)
	_ gpu.WeightStreamer   = (*Backend)(nil)
	_ gpu.Describer        = (*Backend)(nil)
	_ gpu.SoftwareReporter = (*Backend)(nil)
	_ gpu.BandwidthMeter   = (*Backend)(nil)
)
