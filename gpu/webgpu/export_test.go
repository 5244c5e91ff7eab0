//go:build cgo || js

package webgpu

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// KeepKernels returns a program running only the kernels of p that keep
// accepts, by kernel file name and workgroup count: the benchmarks time a
// decode step with classes of kernels left out to see where its time goes.
// The result shares p's buffers; release only p.
func KeepKernels(p gpu.Program, keep func(name string, groups int) bool) gpu.Program {
	q := *p.(*program)
	q.kernels, q.cache = nil, encodeCache{}
	for _, k := range p.(*program).kernels {
		if keep(k.name, int(k.grid[0]*k.grid[1]*k.grid[2])) {
			q.kernels = append(q.kernels, k)
		}
	}
	return &q
}

// RepeatKernels returns a program running every kernel of p, those that
// twice accepts (by kernel file name and workgroup count) twice in a row: the second waits for the first (it writes
// what the first wrote), so the step's time grows by what one such kernel
// costs inside the chain of dependent dispatches. The result shares p's
// buffers; release only p.
func RepeatKernels(p gpu.Program, twice func(name string, groups int) bool) gpu.Program {
	q := *p.(*program)
	q.kernels, q.cache = nil, encodeCache{}
	for _, k := range p.(*program).kernels {
		q.kernels = append(q.kernels, k)
		if twice(k.name, int(k.grid[0]*k.grid[1]*k.grid[2])) {
			q.kernels = append(q.kernels, k)
		}
	}
	return &q
}

// RoundingProducts sets whether be compiles decode products whose output
// the next product reads rounded into matmul_round and its kin where it
// can (on) or always into a product and a quantize_act dispatch.
func RoundingProducts(be gpu.Backend, on bool) { be.(*Backend).set(fuseRoundingProducts, on) }

// AttentionHeads sets whether be compiles a prefill's attention into
// attention_heads where it can (on) or always into attention.
func AttentionHeads(be gpu.Backend, on bool) { be.(*Backend).set(fuseAttentionHeads, on) }

// RouteTails sets whether be compiles a decode step's router product and
// the route after it into matmul_route where it can (on) or always into a
// product and a route dispatch.
func RouteTails(be gpu.Backend, on bool) { be.(*Backend).set(fuseRouteTail, on) }

// GridLimit makes be spread every dispatch of more than n workgroups over
// x and y, as it does past 65535, so that a small grid has surplus
// workgroups (those past the dispatch's count in its last row).
func GridLimit(be gpu.Backend, n int) { be.(*Backend).gridX = n }

func (b *Backend) set(f fusion, on bool) {
	if on {
		b.off &^= f
	} else {
		b.off |= f
	}
}

// UploadFlush sets the weight bytes be lets wait for a submission,
// PendingUpload says how many wait now, and UploadSubmits how many
// submissions of them there have been.
func UploadFlush(be gpu.Backend, n int) { be.(*Backend).uploadFlush = n }
func PendingUpload(be gpu.Backend) int  { return be.(*Backend).pendingUpload }
func UploadSubmits(be gpu.Backend) int  { return be.(*Backend).uploadSubmits }

// RoundMode is quantize_act's mode and block size for the inputs of
// products with weights of type wt and rows of K.
func RoundMode(wt gpu.Type, K int) (mode, bs int, err error) { return roundMode(wt, K) }

// TiledFrom is the fewest tokens whose products take the tiled kernel.
const TiledFrom = tiledFrom

// PackedActivations rounds rows of K activations x as the products of
// weights of type wt read them (roundMode's mode: quantize_packed where
// tiled, as a prompt's tiled products take them, else quantize_act, as a
// decode step's matvecs do) and returns the rounded rows' bytes, K words
// a row: what the products read, copied out bit for bit.
func PackedActivations(be gpu.Backend, wt gpu.Type, K int, x []float32, tiled bool) ([]byte, error) {
	b := be.(*Backend)
	rows := len(x) / K
	in, err := b.newF32("x", x, gpu.Shape4(K, rows))
	if err != nil {
		return nil, err
	}
	defer in.(*buffer).release()
	out, err := b.Alloc("out", tF32, gpu.Shape4(K, rows))
	if err != nil {
		return nil, err
	}
	defer out.(*buffer).release()
	g := gpu.NewGraph("packed", 1)
	c := &compiler{be: b, g: g, p: &program{be: b, name: g.Name}, buffers: map[*gpu.Tensor]*wgpu.Buffer{},
		rounded: map[roundKey]roundedAct{}, fresh: map[roundKey]roundedAct{}}
	defer c.p.release()
	x0 := g.Bind("x", in)
	l, err := locOf(x0)
	if err != nil {
		return nil, err
	}
	l.tokensThird()
	q, _, err := c.roundActivations(x0, l, wt, K, 1, rows, tiled)
	if err != nil {
		return nil, err
	}
	// The rounded copy is addressed by roundedLoc, not by strides: a
	// packed view of it is what the copy reads.
	qv := g.View("rounded", q, 0, q.Shape, nil)
	if err := c.lowerCopy(&gpu.Copy{In: qv, Out: g.Bind("out", out)}); err != nil {
		return nil, err
	}
	if err := b.runOnce(c.p); err != nil {
		return nil, err
	}
	got := make([]byte, 4*len(x))
	return got, out.Read(0, got)
}

// NormPacked normalises rows of n activations x with weight as a prompt's
// or a decode step's RMSNorm does when a product of weights of type wt
// reads its output (rmsnorm_packed for T rows a tiled product takes, else
// rmsnorm_round) and returns the normed rows and their packed rounding,
// n words a row, copied out bit for bit.
func NormPacked(be gpu.Backend, wt gpu.Type, n int, x, weight []float32) ([]float32, []byte, error) {
	b := be.(*Backend)
	rows := len(x) / n
	in, err := b.newF32("x", x, gpu.Shape4(n, rows))
	if err != nil {
		return nil, nil, err
	}
	defer in.(*buffer).release()
	wb, err := b.newF32("weight", weight, gpu.Shape4(n))
	if err != nil {
		return nil, nil, err
	}
	defer wb.(*buffer).release()
	wq, err := b.Alloc("wq", wt, gpu.Shape4(n, 32))
	if err != nil {
		return nil, nil, err
	}
	defer wq.(*buffer).release()
	normedOut, err := b.Alloc("normed", tF32, gpu.Shape4(n, rows))
	if err != nil {
		return nil, nil, err
	}
	defer normedOut.(*buffer).release()
	packedOut, err := b.Alloc("packed", tF32, gpu.Shape4(n, rows))
	if err != nil {
		return nil, nil, err
	}
	defer packedOut.(*buffer).release()
	g := gpu.NewGraph("norm", rows)
	c := &compiler{be: b, g: g, p: &program{be: b, name: g.Name}, buffers: map[*gpu.Tensor]*wgpu.Buffer{},
		rounded: map[roundKey]roundedAct{}, fresh: map[roundKey]roundedAct{}}
	defer c.p.release()
	normed := g.New("normed", tF32, n, rows)
	norm := &gpu.RMSNorm{In: g.Bind("x", in), Weight: g.Bind("weight", wb), Out: normed, Eps: 1e-5}
	// The product after it, never lowered: what makes the norm round.
	c.op, c.rest = norm, []gpu.Op{&gpu.MatMul{W: g.Bind("wq", wq), In: normed, Out: g.New("y", tF32, 32, rows)}}
	if err := c.lowerRMSNorm(norm); err != nil {
		return nil, nil, err
	}
	if len(c.rounded) != 1 {
		return nil, nil, fmt.Errorf("the norm left %d rounded copies, want 1", len(c.rounded))
	}
	for _, r := range c.rounded {
		if err := c.lowerCopy(&gpu.Copy{In: g.View("rounded", r.t, 0, r.t.Shape, nil), Out: g.Bind("packed", packedOut)}); err != nil {
			return nil, nil, err
		}
	}
	if err := c.lowerCopy(&gpu.Copy{In: normed, Out: g.Bind("normed.out", normedOut)}); err != nil {
		return nil, nil, err
	}
	if err := b.runOnce(c.p); err != nil {
		return nil, nil, err
	}
	raw := make([]byte, 4*len(x))
	if err := normedOut.Read(0, raw); err != nil {
		return nil, nil, err
	}
	out := make([]float32, len(x))
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	packed := make([]byte, 4*len(x))
	return out, packed, packedOut.Read(0, packed)
}

// newF32 allocates an F32 buffer of the shape and writes v into it.
func (b *Backend) newF32(name string, v []float32, shape [4]int) (gpu.Buffer, error) {
	buf, err := b.Alloc(name, tF32, shape)
	if err != nil {
		return nil, err
	}
	raw := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(f))
	}
	if err := buf.Write(0, raw); err != nil {
		buf.(*buffer).release()
		return nil, err
	}
	return buf, nil
}

// runOnce submits program p's kernels once and waits for them.
func (b *Backend) runOnce(p *program) error {
	enc, err := b.dev.TryCreateCommandEncoder(nil)
	if err != nil {
		return err
	}
	defer enc.Release()
	pass := enc.BeginComputePass(nil)
	p.encode(pass)
	if err := pass.TryEnd(); err != nil {
		return err
	}
	pass.Release()
	cmd, err := enc.TryFinish(nil)
	if err != nil {
		return err
	}
	defer cmd.Release()
	b.queue.Submit(cmd)
	return b.wait()
}

// SetTallGroups makes the batch products of steps compiled from now on
// take matmul_tokens_tall from n workgroups on (tallGroups), whatever
// their rows' length (tallK), until restore is called.
func SetTallGroups(n int) (restore func()) {
	old, oldK := tallGroups, tallK
	tallGroups, tallK = n, 0
	return func() { tallGroups, tallK = old, oldK }
}

// SetScoreGroups makes the scores passes of steps compiled from now on
// aim at n workgroups (scoreGroups) until restore is called.
func SetScoreGroups(n int) (restore func()) {
	old := scoreGroups
	scoreGroups = n
	return func() { scoreGroups = old }
}
