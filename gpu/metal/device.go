package metal

import "github.com/emberllm/ember/msl"

// device is what the backend needs of a GPU: Metal itself on macOS
// (device_darwin.go), and in the tests an emulation that runs the same
// MSL kernels on the CPU, so that everything above this interface (the
// lowering of graphs, the bindings, the parameter blocks, the kernels
// themselves) runs where there is no Mac.
type device interface {
	// name and family say what the device is (-v prints them).
	name() string
	family() string
	// features are the optional features the kernels use where the
	// device has them: SIMD-group reductions (msl's //!reduce) and
	// matrices (//!tilemul).
	features() msl.Features
	// maxBuffer is the largest buffer the device makes, in bytes.
	maxBuffer() int
	// alloc makes a zero-filled buffer of n bytes the host sees too.
	alloc(n int) (memory, error)
	// wrap makes a buffer of the whole pages holding data, without
	// copying them, and returns the offset of data[0] in it. data must
	// stay mapped while the buffer lives. The host keeps no Go pointer to
	// the pages' first byte: where data is Go memory, that byte may lie
	// in another object, or in a freed one, which the collector refuses
	// to find a pointer to.
	wrap(data []byte) (memory, int, error)
	// pipeline compiles a kernel: src is k's source with its prelude.
	pipeline(src string, k *msl.Kernel) (pipeline, error)
	// run encodes cmds in order into one command buffer and commits it,
	// step being the bytes of the step (stepBytes); it does not wait.
	run(cmds []*command, step []byte) error
	// wait blocks until the work committed so far is done and returns
	// the first error it met.
	wait() error
	close()
}

// memory is one device buffer.
type memory interface {
	// host is the buffer's bytes from byte off on as the host sees them
	// (Apple GPUs share memory with the CPU): read and written there once
	// the device is idle. A wrapped weight's bytes start at the offset
	// wrap returned; off must not lie before it.
	host(off int) []byte
	release()
}

// pipeline is a compiled kernel.
type pipeline interface{ release() }

// command is one dispatch: a kernel, its parameter bytes ([[buffer(0)]]),
// whether it reads the step ([[buffer(1)]]), its buffers from index 2 on,
// and the threadgroups of its grid.
type command struct {
	name   string
	pipe   pipeline
	k      *msl.Kernel
	params []byte
	step   bool
	args   []arg
	groups int
}

// arg is a buffer argument: a memory and the byte offset it is bound at
// (a multiple of 16, which every Metal device takes).
type arg struct {
	mem memory
	off int
}

// bindAlign is the alignment of arguments' offsets.
const bindAlign = 16
