//go:build cgo || js

package webgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// floatsKernel is a one-off kernel for runFloats: thread i writes Y[i]
// as body says, from X.
func floatsKernel(body string) string {
	return `
@group(0) @binding(0) var<storage, read> X: array<f32>;
@group(0) @binding(1) var<storage, read_write> Y: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i >= arrayLength(&Y)) { return; }
    ` + body + `
}
`
}

// fmaProbeKernel writes fma(a, b, c) for each triple of its input.
var fmaProbeKernel = floatsKernel("Y[i] = fma(X[3u * i], X[3u * i + 1u], X[3u * i + 2u]);")

// fmaProbeCount is the number of triples the probe tries.
const fmaProbeCount = 4096

// fusedFMA reports whether the device's fma() rounds once, as the CPU's
// fused multiply-add does, so that kernels with fma_exact (the exact
// kernels, and the division that rounds activation scales in both modes)
// may use it rather than its integer emulation. WGSL allows either; lavapipe's is a
// multiply and an add, NVIDIA's is fused. The probe is triples whose sum
// nearly cancels the product, where the two differ in most low bits, each
// compared with quant.FMA32. It runs once per backend; a failure to run
// it counts as unfused (the emulation is right everywhere).
func (b *Backend) fusedFMA() bool {
	if b.fmaProbed {
		return b.fmaFused
	}
	b.fmaProbed = true
	fused, err := b.probeFMA()
	b.fmaFused = err == nil && fused
	return b.fmaFused
}

func (b *Backend) probeFMA() (bool, error) {
	r := rand.New(rand.NewPCG(7, 11))
	xs := make([]float32, 0, 3*fmaProbeCount)
	// (1+2^-12)² - 1: 2^-11 + 2^-24 fused, 2^-11 when the product is rounded.
	e := float32(1) + float32(math.Ldexp(1, -12))
	xs = append(xs, e, e, -1)
	for len(xs) < cap(xs) {
		a := float32(math.Ldexp(1+r.Float64(), r.IntN(40)-20)) * float32(1-2*r.IntN(2))
		bb := float32(math.Ldexp(1+r.Float64(), r.IntN(40)-20))
		c := -a * bb * float32(1+math.Ldexp(r.Float64()-0.5, -r.IntN(20)))
		xs = append(xs, a, bb, c)
	}
	ys, err := b.runFloats("fma_probe", fmaProbeKernel, xs, fmaProbeCount)
	if err != nil {
		return false, fmt.Errorf("fma probe: %w", err)
	}
	for i, y := range ys {
		if math.Float32bits(y) != math.Float32bits(quant.FMA32(xs[3*i], xs[3*i+1], xs[3*i+2])) {
			return false, nil
		}
	}
	return true, nil
}

// runFloats runs the one-off kernel src, whose bindings are 0 (xs) and 1
// (n floats out), in workgroups of 64 threads, one a result, and returns
// its results.
func (b *Backend) runFloats(label, src string, xs []float32, n int) ([]float32, error) {
	pipe, err := b.newPipeline(label, src)
	if err != nil {
		return nil, err
	}
	defer pipe.Release()
	in, err := b.newBuffer(label+"_in", gguf.F32, gpu.Shape4(len(xs)))
	if err != nil {
		return nil, err
	}
	defer in.release()
	out, err := b.newBuffer(label+"_out", gguf.F32, gpu.Shape4(n))
	if err != nil {
		return nil, err
	}
	defer out.release()
	raw := make([]byte, 4*max(len(xs), n))
	for i, v := range xs {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	if err := in.Write(0, raw[:4*len(xs)]); err != nil {
		return nil, err
	}
	layout := pipe.GetBindGroupLayout(0)
	defer layout.Release()
	grp, err := b.dev.TryCreateBindGroup(&wgpu.BindGroupDescriptor{Layout: layout, Entries: []wgpu.BindGroupEntry{
		{Binding: 0, Buffer: in.buf, Size: wgpu.WholeSize}, {Binding: 1, Buffer: out.buf, Size: wgpu.WholeSize}}})
	if err != nil {
		return nil, err
	}
	defer grp.Release()
	enc, err := b.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return nil, err
	}
	defer enc.Release()
	pass := enc.BeginComputePass(nil)
	pass.SetPipeline(pipe)
	pass.SetBindGroup(0, grp, nil)
	pass.DispatchWorkgroups(uint32((n+63)/64), 1, 1)
	if err := pass.TryEnd(); err != nil {
		return nil, err
	}
	pass.Release()
	cmd, err := enc.TryFinish(nil)
	if err != nil {
		return nil, err
	}
	defer cmd.Release()
	b.queue.Submit(cmd)
	res := raw[:4*n]
	if err := out.Read(0, res); err != nil {
		return nil, err
	}
	ys := make([]float32, n)
	for i := range ys {
		ys[i] = math.Float32frombits(binary.LittleEndian.Uint32(res[4*i:]))
	}
	return ys, nil
}
