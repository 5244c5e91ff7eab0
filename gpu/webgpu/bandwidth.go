//go:build cgo || js

package webgpu

import (
	"fmt"
	"time"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// readParams are read_bandwidth.wgsl's words: the 16-byte words to read.
type readParams struct {
	Words int
}

// readGroups is how many workgroups read_bandwidth runs: enough to fill a
// large GPU many times over, each thread reading a few hundred words of a
// 1 GiB buffer.
const readGroups = 4096

// ReadBandwidth measures the device's memory bandwidth as a streaming read
// of up to 1 GiB (one binding) by a kernel, as decode reads its weights:
// the bytes read a second, in GB/s (10^9 bytes). The yardstick for how
// close decode comes to the hardware; a buffer copy reads and writes
// through another path and says less about kernels.
func (b *Backend) ReadBandwidth() (float64, error) {
	size := min(uint64(1<<30), b.bindingLimit(), b.limits.MaxBufferSize) &^ 255
	fail := func(err error) (float64, error) { return 0, fmt.Errorf("webgpu: read bandwidth: %w", err) }
	src, err := b.Alloc("bandwidth.src", tI32, gpu.Shape4(int(size/4)))
	if err != nil {
		return fail(err)
	}
	defer src.(*buffer).release()
	dst, err := b.Alloc("bandwidth.dst", tI32, gpu.Shape4(readGroups))
	if err != nil {
		return fail(err)
	}
	defer dst.(*buffer).release()
	g := gpu.NewGraph("bandwidth", 1)
	c := &compiler{be: b, g: g, p: &program{be: b, name: g.Name}, buffers: map[*gpu.Tensor]*wgpu.Buffer{}}
	defer c.p.release()
	err = c.dispatch("read_bandwidth", "", readParams{int(size / 16)}, false,
		[]*gpu.Tensor{g.Bind("src", src), g.Bind("dst", dst)}, readGroups)
	if err != nil {
		return fail(err)
	}
	run := func(n int) (time.Duration, error) {
		enc, err := b.dev.TryCreateCommandEncoder(nil)
		if err != nil {
			return 0, err
		}
		defer enc.Release()
		pass := enc.BeginComputePass(nil)
		for range n {
			c.p.encode(pass)
		}
		if err := pass.TryEnd(); err != nil {
			pass.Release()
			return 0, err
		}
		pass.Release()
		cmd, err := enc.TryFinish(nil)
		if err != nil {
			return 0, err
		}
		defer cmd.Release()
		t0 := time.Now()
		b.queue.Submit(cmd)
		err = b.wait()
		return time.Since(t0), err
	}
	if _, err := run(1); err != nil { // first touch and warm-up
		return fail(err)
	}
	const n = 10
	d, err := run(n)
	if err != nil {
		return fail(err)
	}
	return float64(size) * n / d.Seconds() / 1e9, nil
}
