//go:build cgo || js

package webgpu

import (
	"fmt"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// program is a compiled graph: its kernels in order, the buffers it owns
// and the uniform holding the step's position.
type program struct {
	be      *Backend
	name    string
	tokens  int
	nops    int
	kernels []*kernel
	owned   []*wgpu.Buffer
	step    *wgpu.Buffer
	maxPos  int
	// span is the graph's Span: no placed token sits at a position past
	// it, and the attention grids are sized to it.
	span int
	// checks validate ids the host wrote before each run.
	checks []func() error
	// results are the small host buffers the graph writes (the chosen
	// token, top-k candidates, logits), copied into their staging buffers
	// at the end of every run; others are the host buffers it writes
	// without that copy (KV caches), whose staged copies go stale.
	results, others []*buffer
	// cache is what encode keeps from run to run (encode_js.go).
	cache encodeCache
}

var _ gpu.Program = (*program)(nil)

func (p *program) Kernels() int { return len(p.kernels) }

// needCtx records that the step stores or reads positions up to
// Pos+tokens-1 of a cache of ctx rows.
func (p *program) needCtx(ctx int) { p.maxPos = min(p.maxPos, ctx-p.tokens) }

// stepBytes is the size of the uniform the kernels read the step's
// position from (parts/step.wgsl): the position and a flag, then the
// places of up to gpu.MaxPlaces tokens, two words each.
const stepBytes = 16 + 8*gpu.MaxPlaces

// Run writes the position (or the tokens' places) and submits every
// kernel in one compute pass.
func (p *program) Run(params gpu.Params) error {
	if err := p.check(params); err != nil {
		return err
	}
	enc, err := p.begin(params)
	if err != nil {
		return err
	}
	defer enc.Release()
	cmd, err := p.record(enc)
	if err != nil {
		return err
	}
	defer cmd.Release()
	p.be.queue.Submit(cmd)
	p.ran()
	return nil
}

var _ gpu.Preparer = (*program)(nil)

// Prepare records a run's pass and copies now; submit checks the run's
// params and the ids the host wrote since, submits the copies queued
// since, writes the params and submits the run.
func (p *program) Prepare() (func(gpu.Params) error, error) {
	if p.be.closed {
		return nil, fmt.Errorf("webgpu: %s: the backend is closed", p.name)
	}
	enc, err := p.be.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	defer enc.Release()
	cmd, err := p.record(enc)
	if err != nil {
		return nil, err
	}
	submitted := false
	return func(params gpu.Params) error {
		if submitted {
			return fmt.Errorf("webgpu: %s: a prepared run submitted twice", p.name)
		}
		submitted = true
		defer cmd.Release()
		if err := p.check(params); err != nil {
			return err
		}
		if err := p.be.flushCopies(); err != nil {
			return err
		}
		if err := p.be.queue.TryWriteBuffer(p.step, 0, p.stepWords(params)); err != nil {
			return err
		}
		p.be.queue.Submit(cmd)
		p.ran()
		return nil
	}, nil
}

// check refuses a run of a closed backend, at a position past the cache,
// or reading ids out of range.
func (p *program) check(params gpu.Params) error {
	if p.be.closed {
		return fmt.Errorf("webgpu: %s: the backend is closed", p.name)
	}
	if err := gpu.CheckRun(params, p.tokens, p.maxPos, p.span); err != nil {
		return fmt.Errorf("webgpu: %s: %w", p.name, err)
	}
	for _, check := range p.checks {
		if err := check(); err != nil {
			return fmt.Errorf("webgpu: %s: %w", p.name, err)
		}
	}
	return nil
}

// record adds every kernel in one compute pass to enc, then the copies of
// the results into their staging buffers, and finishes it.
func (p *program) record(enc *wgpu.CommandEncoder) (*wgpu.CommandBuffer, error) {
	pass := enc.BeginComputePass(nil)
	p.encode(pass)
	if err := pass.TryEnd(); err != nil {
		pass.Release()
		return nil, fmt.Errorf("webgpu: %s: %w", p.name, err)
	}
	pass.Release()
	for _, r := range p.results {
		if err := enc.TryCopyBufferToBuffer(r.buf, 0, r.stage, 0, uint64((r.size+3)&^3)); err != nil {
			return nil, fmt.Errorf("webgpu: %s: %w", p.name, err)
		}
	}
	cmd, err := enc.TryFinish(nil)
	if err != nil {
		return nil, fmt.Errorf("webgpu: %s: %w", p.name, err)
	}
	return cmd, nil
}

// ran marks what a submitted run leaves in the staging buffers: its
// results current, the other host buffers it writes stale.
func (p *program) ran() {
	for _, r := range p.results {
		r.staged = true
	}
	for _, o := range p.others {
		o.staged = false
	}
}

// begin writes the step's uniform and returns an encoder holding the
// backend's pending copies, ready for the kernels' passes.
func (p *program) begin(params gpu.Params) (*wgpu.CommandEncoder, error) {
	if err := p.be.queue.TryWriteBuffer(p.step, 0, p.stepWords(params)); err != nil {
		return nil, err
	}
	enc, err := p.be.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	if err := p.be.encodeCopies(enc); err != nil {
		enc.Release()
		return nil, err
	}
	return enc, nil
}

// stepWords is what Run writes to the step's uniform (gpu.StepBytes).
func (p *program) stepWords(params gpu.Params) []byte { return gpu.StepBytes(params) }

func (p *program) release() {
	for _, k := range p.kernels {
		k.group.Release()
	}
	for _, b := range p.owned {
		b.Release()
	}
}
