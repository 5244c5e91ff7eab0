package metal

import (
	"fmt"
	"time"

	"github.com/emberllm/ember/gpu"
)

var _ gpu.BandwidthMeter = (*Backend)(nil)

// readParams are read_bandwidth.metal's: the 16-byte words to read.
type readParams struct {
	Words int
}

// readGroups is how many threadgroups read_bandwidth runs: enough to fill
// a large GPU many times over, each thread reading a few hundred words of
// a 1 GiB buffer.
const readGroups = 4096

// ReadBandwidth measures the device's memory bandwidth as a streaming read
// of up to 1 GiB by a kernel, as decode reads its weights: the bytes read
// a second, in GB/s (10^9 bytes), timed over ten reads in one command
// buffer after one to warm up.
func (b *Backend) ReadBandwidth() (float64, error) { return b.readBandwidth(1<<30, readGroups, 10) }

// readBandwidth times n reads of size bytes by groups threadgroups.
func (b *Backend) readBandwidth(size, groups, n int) (float64, error) {
	size = min(size, b.dev.maxBuffer()) &^ 255
	fail := func(err error) (float64, error) { return 0, fmt.Errorf("metal: read bandwidth: %w", err) }
	src, err := b.newAlloc("bandwidth.src", tI32, gpu.Shape4(size/4))
	if err != nil {
		return fail(err)
	}
	defer src.release()
	dst, err := b.newAlloc("bandwidth.dst", tI32, gpu.Shape4(groups))
	if err != nil {
		return fail(err)
	}
	defer dst.release()
	g := gpu.NewGraph("bandwidth", 1)
	c := &compiler{be: b, g: g, p: &program{be: b, name: g.Name}, acts: map[*gpu.Tensor]memory{}}
	err = c.dispatch("read_bandwidth", "", readParams{size / 16}, false, []arg{{mem: src.segs[0].mem}, {mem: dst.segs[0].mem}}, groups)
	if err != nil {
		return fail(err)
	}
	run := func(n int) (time.Duration, error) {
		var cmds []*command
		for range n {
			cmds = append(cmds, c.p.cmds...)
		}
		t0 := time.Now()
		if err := b.dev.run(cmds, make([]byte, stepBytes)); err != nil {
			return 0, err
		}
		err := b.dev.wait()
		return time.Since(t0), err
	}
	if _, err := run(1); err != nil { // first touch and warm-up
		return fail(err)
	}
	d, err := run(n)
	if err != nil {
		return fail(err)
	}
	return float64(size) * float64(n) / d.Seconds() / 1e9, nil
}
