//go:build cgo && !js

package webgpu

import "github.com/oliverbestmann/webgpu/wgpu"

// encodeCache is what encode keeps between runs: nothing here.
type encodeCache struct{}

// encode records p's kernels in pass, in order.
func (p *program) encode(pass *wgpu.ComputePassEncoder) {
	var last *wgpu.ComputePipeline
	for _, k := range p.kernels {
		// Each call crosses into wgpu-native; a step is hundreds of them.
		if k.pipe != last {
			pass.SetPipeline(k.pipe)
			last = k.pipe
		}
		pass.SetBindGroup(0, k.group, nil)
		pass.DispatchWorkgroups(k.grid[0], k.grid[1], k.grid[2])
	}
}
