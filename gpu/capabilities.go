package gpu

import "io"

// The optional capabilities of a backend: interfaces beyond Backend that a
// backend implements where it has the capability, and that callers find
// with a type assertion on the Backend they hold. A wrapper around a
// Backend hides them all, so the engine and the server pass backends on
// as they were given.

// Copier is implemented by backends whose work runs apart from the host
// (a GPU). CopyBuffer queues a copy of n bytes from src at srcOff to dst at
// dstOff, after the work submitted before it and before the work submitted
// after, and returns without waiting. The engine feeds a step's chosen
// token to the next step this way, so the host prepares step n+1 while the
// device runs step n instead of waiting for n's token (engine/chain.go);
// it also takes a Copier as the sign that reading back every logit is a
// transfer worth avoiding, and has the step choose sampling candidates on
// the device instead (engine/candidates.go).
type Copier interface {
	CopyBuffer(dst Buffer, dstOff int, src Buffer, srcOff, n int) error
}

// ReadStarter is implemented by the buffers of backends whose work runs
// apart from the host (a Copier's). StartRead queues a copy of the n bytes
// at byte offset off to the host behind the work submitted so far and
// returns without waiting; wait blocks until that copy is done, not the
// work submitted after it, and fills dst (n bytes). The engine reads a
// greedy chain's tokens this way while the device already runs the next
// chain (engine/chain.go). A buffer has at most one read started and not
// waited for; one never waited for is simply dropped.
type ReadStarter interface {
	StartRead(off, n int) (wait func(dst []byte) error, err error)
}

// Preparer is implemented by the programs of backends whose work runs
// apart from the host. Prepare records a run ahead of its submission,
// while the device runs earlier work, and returns the submit that queues
// it with its params (a position, or a batch's places); a run reads its
// buffers as they are when it runs, so the host may still write the
// step's tokens in between. A sampled decode prepares the next step while
// the device computes the current one, so between a token's readback and
// the next submission the host only samples and writes the token
// (engine/session.go, engine/batch_schedule.go). A prepared run is
// submitted once, or dropped.
type Preparer interface {
	Prepare() (submit func(Params) error, err error)
}

// WeightCopier is implemented by backends that can tell whether Weight
// copies the data it is given (to the device, or into the backend's own
// memory) rather than keeping it. When CopiesWeights is true, the model
// file's pages of a tensor need not stay resident once the tensor is
// bound: engine/model drops each tensor's pages after Weight, and the
// engine the whole file's after loading.
type WeightCopier interface {
	CopiesWeights() bool
}

// WeightStreamer is implemented by backends that can take a weight's bytes
// from a reader a piece at a time (to the device, as they arrive), so a
// model whose file is not mapped into memory loads without a whole tensor
// in the host's: the browser, where weights come from a file or the
// network into a wasm heap of at most 4 GiB (engine/model uses it there).
// WeightFrom reads exactly the bytes of typ and shape from r.
type WeightStreamer interface {
	WeightFrom(name string, typ Type, shape [4]int, r io.Reader) (Buffer, error)
}

// Describer is implemented by backends that can say what they run on (the
// adapter, its features and limits). The CLI writes it to stderr when it
// opens the backend, and the browser build's WebGPU self-check
// (ember.webgpu in cmd/wasm) returns it.
type Describer interface {
	Describe(w io.Writer)
}

// SoftwareReporter is implemented by backends that can run on an emulated
// device. Software reports whether this one does (a WebGPU adapter that
// renders on the CPU, such as lavapipe): the CLI's automatic choice then
// takes the CPU backend, whose own kernels are faster.
type SoftwareReporter interface {
	Software() bool
}

// BandwidthMeter is implemented by backends that can measure their device
// memory's bandwidth. ReadBandwidth returns it in GB/s (10^9 bytes a
// second), timed over a kernel streaming a large buffer, as decode streams
// its weights; `ember bench` reports it as the yardstick for how close
// decode comes to the hardware.
type BandwidthMeter interface {
	ReadBandwidth() (float64, error)
}
