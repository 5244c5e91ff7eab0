//go:build js

package webgpu

import (
	"encoding/binary"
	"syscall/js"

	"github.com/oliverbestmann/webgpu/wgpu"
)

// In the browser every call on a GPUComputePassEncoder crosses from Go into
// JavaScript with its arguments converted (setBindGroup's empty offsets a
// new array each time): three crossings a kernel, hundreds of kernels a
// step. encode instead makes one call a step, to encodeKernels, which walks
// arrays of the program's pipelines, bind groups and grids made at its
// first run.
var encodeKernels = js.Global().Get("Function").New("pass", "pipes", "groups", "grid", `
let last = null;
for (let i = 0; i < groups.length; i++) {
	const p = pipes[i];
	if (p !== last) {
		pass.setPipeline(p);
		last = p;
	}
	pass.setBindGroup(0, groups[i]);
	pass.dispatchWorkgroups(grid[3 * i], grid[3 * i + 1] || 1, grid[3 * i + 2] || 1);
}`)

// encodeCache holds a program's kernels as encodeKernels takes them.
type encodeCache struct {
	built                bool
	pipes, groups, grids js.Value
}

func (p *program) encode(pass *wgpu.ComputePassEncoder) {
	c := &p.cache
	if !c.built {
		n := len(p.kernels)
		pipes, groups := make([]any, n), make([]any, n)
		raw := make([]byte, 12*n)
		for i, k := range p.kernels {
			pipes[i], groups[i] = jsOf(k.pipe), jsOf(k.group)
			for j, g := range k.grid {
				binary.LittleEndian.PutUint32(raw[12*i+4*j:], g)
			}
		}
		bytes := js.Global().Get("Uint8Array").New(len(raw))
		js.CopyBytesToJS(bytes, raw)
		*c = encodeCache{built: true, pipes: js.ValueOf(pipes), groups: js.ValueOf(groups), grids: js.Global().Get("Uint32Array").New(bytes.Get("buffer"))}
	}
	encodeKernels.Invoke(jsOf(pass), c.pipes, c.groups, c.grids)
}
