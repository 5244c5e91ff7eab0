//go:build cgo || js

package webgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

const (
	tF32 = gguf.F32
	tF16 = gguf.F16
	tI32 = gguf.I32
	// paramWords is the size of every kernel's parameter block (the
	// uniform array<vec4<u32>, 16> of common.wgsl): params.go.
	paramWords = 64
	// maxGroups is WebGPU's smallest guaranteed workgroup count per
	// dimension; larger grids spill into y.
	maxGroups = 65535
)

// kernel is one dispatch of a compiled graph.
type kernel struct {
	name  string
	pipe  *wgpu.ComputePipeline
	group *wgpu.BindGroup
	grid  [3]uint32
}

// compiler lowers a graph's ops into kernels.
type compiler struct {
	be      *Backend
	g       *gpu.Graph
	p       *program
	buffers map[*gpu.Tensor]*wgpu.Buffer // root tensor -> device memory
	// rounded holds activations already rounded for a product, so the
	// products sharing an input (q, k, v; gate, up) round it once; an op
	// writing the input's memory drops the entry.
	rounded map[roundKey]roundedAct
	// fresh are rounded copies a lowering made of what an op fused into it
	// writes: they join rounded once those ops' writes have dropped the
	// stale ones.
	fresh map[roundKey]roundedAct
	// rest is the ops after the one being lowered; a lowering that also
	// does the first few of them (a fused epilogue) sets fused to how many.
	rest  []gpu.Op
	fused int
	// op is the op being lowered.
	op gpu.Op
	// scratch is the attention scores' memory, one for every layer.
	scratch *gpu.Tensor
	// done is the count matmul_route's workgroups keep (ops_route_tail.go).
	done *gpu.Tensor
	// unrounded is what attention_values binds as its rounded copy where
	// it writes none: a word of its own, since Out is of another type.
	unrounded *gpu.Tensor
	// listed holds the expert lists (expert_groups) that products by
	// expert id (a prefill's tiles, a decode batch's runs) made of their
	// ids, so a layer's later products read the list its first made; an
	// op writing the ids' memory drops the entry.
	listed map[*gpu.Tensor]*gpu.Tensor
}

// roundKey names a rounded copy by the memory it was made from: a packed
// tensor by its root, byte offset and size, so that views of the same
// bytes (the experts' {K, 1, T} reshape of a {K, T} norm) share it; any
// other tensor by itself.
type roundKey struct {
	in        *gpu.Tensor // nil for a packed tensor
	root      *gpu.Tensor
	off, size int
	mode, B   int
}

func roundKeyOf(t *gpu.Tensor, mode, B int) roundKey {
	k := roundKey{root: t.Root(), mode: mode, B: B}
	if !t.Contiguous() {
		k.in = t
		return k
	}
	if t.Kind == gpu.View {
		k.off = t.Off
	}
	k.size = gpu.Bytes(t.Type, t.Shape)
	return k
}

type roundedAct struct {
	t *gpu.Tensor
	l loc
}

// Compile builds pipelines, buffers and bind groups for every op.
func (b *Backend) Compile(g *gpu.Graph) (gpu.Program, error) {
	if b.closed {
		return nil, fmt.Errorf("webgpu: compile %s: the backend is closed", g.Name)
	}
	if g.Tokens < 1 {
		return nil, fmt.Errorf("webgpu: compile %s: a step of %d tokens", g.Name, g.Tokens)
	}
	if err := gpu.Validate(g); err != nil {
		return nil, fmt.Errorf("webgpu: compile %s: %w", g.Name, err)
	}
	p := &program{be: b, name: g.Name, tokens: g.Tokens, nops: len(g.Ops), maxPos: math.MaxInt32, span: g.Span}
	c := &compiler{be: b, g: g, p: p, buffers: map[*gpu.Tensor]*wgpu.Buffer{}, rounded: map[roundKey]roundedAct{}, fresh: map[roundKey]roundedAct{}, listed: map[*gpu.Tensor]*gpu.Tensor{}}
	step, err := b.dev.TryCreateBuffer(&wgpu.BufferDescriptor{Label: g.Name + ".step", Size: stepBytes, Usage: wgpu.BufferUsageUniform | wgpu.BufferUsageCopyDst})
	if err != nil {
		return nil, fmt.Errorf("webgpu: compile %s: %w", g.Name, err)
	}
	p.step = step
	p.owned = append(p.owned, step)
	for i := 0; i < len(g.Ops); i++ {
		op := g.Ops[i]
		c.rest = g.Ops[i+1:]
		c.fused = 0
		c.op = op
		// What an op writes drops the rounded copies of that memory before
		// it is lowered, so a lowering may leave fresh ones (an RMSNorm
		// rounding its output), and after ops fused into it.
		c.dropRounded(op)
		if err := c.lower(op); err != nil {
			p.release()
			return nil, fmt.Errorf("webgpu: compile %s: op %d (%s): %w", g.Name, i, op.OpName(), err)
		}
		for _, done := range g.Ops[i+1 : i+1+c.fused] {
			c.dropRounded(done)
		}
		for k, r := range c.fresh {
			c.rounded[k] = r
		}
		clear(c.fresh)
		i += c.fused
	}
	if err := c.planResults(); err != nil {
		p.release()
		return nil, fmt.Errorf("webgpu: compile %s: %w", g.Name, err)
	}
	return p, nil
}

// planResults sorts the host buffers the graph writes: the small ones
// that are not caches get their staging buffer now and are copied into
// it by every run, so reading them back needs no submission of its own.
func (c *compiler) planResults() error {
	seen := map[*buffer]bool{}
	for _, op := range c.g.Ops {
		_, store := op.(*gpu.KVStore)
		for _, t := range op.Outputs() {
			r := t.Root()
			b, ok := r.Buf.(*buffer)
			if r.Kind != gpu.External || !ok || seen[b] {
				continue
			}
			seen[b] = true
			if store || (b.size+3)&^3 > stageMax {
				c.p.others = append(c.p.others, b)
				continue
			}
			if _, err := b.staging(&b.stage, (b.size+3)&^3); err != nil {
				return err
			}
			c.p.results = append(c.p.results, b)
		}
	}
	return nil
}

// dropRounded drops the rounded copies, and the expert lists, made of
// memory that op writes.
func (c *compiler) dropRounded(op gpu.Op) {
	for _, o := range op.Outputs() {
		for k := range c.rounded {
			if k.root == o.Root() {
				delete(c.rounded, k)
			}
		}
		for ids := range c.listed {
			if ids.Root() == o.Root() {
				delete(c.listed, ids)
			}
		}
	}
}

func (c *compiler) lower(op gpu.Op) error {
	for _, t := range op.Outputs() {
		if r := t.Root(); r.Kind == gpu.External {
			if b, ok := r.Buf.(*buffer); ok && b.readOnly {
				return fmt.Errorf("writes %s, a read-only weight", t.Name)
			}
		}
	}
	if s := c.matchStepAttention(op); s != nil {
		return c.lowerStepAttention(s)
	}
	if s := c.matchMLAStep(op); s != nil {
		return c.lowerMLAStep(s)
	}
	switch o := op.(type) {
	case *gpu.Add:
		return c.lowerBinary("add", o.A, o.B, o.Out, 0)
	case *gpu.Mul:
		return c.lowerBinary("mul", o.A, o.B, o.Out, 0)
	case *gpu.SwiGLU:
		return c.lowerBinary("swiglu", o.Gate, o.Up, o.Out, 0)
	case *gpu.Scale:
		return c.lowerBinary("scale", o.In, o.In, o.Out, o.S)
	case *gpu.RMSNorm:
		return c.lowerRMSNorm(o)
	case *gpu.MatMul:
		return c.lowerMatMul(o)
	case *gpu.Embed:
		return c.lowerEmbed(o)
	case *gpu.Rope:
		return c.lowerRope(o)
	case *gpu.KVStore:
		return c.lowerKVStore(o)
	case *gpu.Attention:
		return c.lowerAttention(o)
	case *gpu.Argmax:
		return c.lowerArgmax(o)
	case *gpu.TopK:
		return c.lowerTopK(o)
	case *gpu.Route:
		return c.lowerRoute(o)
	case *gpu.WeightedSum:
		return c.lowerWeightedSum(o)
	case *gpu.MatMulID:
		return c.lowerMatMulID(o)
	case *gpu.Copy:
		return c.lowerCopy(o)
	}
	return fmt.Errorf("op %s is not implemented on WebGPU yet", op.OpName())
}

// buffer returns the device memory holding t, allocating activations on
// first use.
func (c *compiler) buffer(t *gpu.Tensor) (*wgpu.Buffer, error) {
	r := t.Root()
	if r.Kind == gpu.External {
		b, ok := r.Buf.(*buffer)
		if !ok || b.be != c.be {
			return nil, fmt.Errorf("%s is bound to a buffer of another backend", r.Name)
		}
		return b.buf, nil
	}
	if b := c.buffers[r]; b != nil {
		return b, nil
	}
	n := padded(gpu.Bytes(r.Type, r.Shape))
	if n > c.be.limits.MaxStorageBufferBindingSize {
		return nil, fmt.Errorf("activation %s of %d MiB exceeds the storage binding limit", r.Name, n>>20)
	}
	b, err := c.be.dev.TryCreateBuffer(&wgpu.BufferDescriptor{Label: r.Name, Size: n, Usage: wgpu.BufferUsageStorage})
	if err != nil {
		return nil, err
	}
	c.buffers[r] = b
	c.p.owned = append(c.p.owned, b)
	return b, nil
}

// loc is where a tensor's elements are: offset and strides in units of its
// element (4 bytes for F32/I32, 2 for F16), as the kernels index them.
type loc struct {
	off    uint32
	stride [4]uint32
}

// tokensThird moves a {K, T} layout's token stride to the third
// dimension, where the products index tokens.
func (l *loc) tokensThird() { l.stride[2], l.stride[1] = l.stride[1], 0 }

func locOf(t *gpu.Tensor) (loc, error) {
	es := t.Type.TypeSize()
	if t.Type.BlockSize() != 1 {
		return loc{}, fmt.Errorf("%s is %s: kernels address F32, F16 and I32 elements only", t.Name, t.Type)
	}
	var l loc
	if t.Kind == gpu.View {
		if t.Off%es != 0 {
			return l, fmt.Errorf("%s starts at byte %d, not a multiple of its %d-byte elements", t.Name, t.Off, es)
		}
		l.off = uint32(t.Off / es)
	}
	for i, s := range t.Stride {
		if s%es != 0 || s < 0 {
			return l, fmt.Errorf("%s has byte stride %d, not a multiple of its %d-byte elements", t.Name, s, es)
		}
		l.stride[i] = uint32(s / es)
	}
	return l, nil
}

// locsOf is locOf of each tensor, or the first error.
func locsOf(ts ...*gpu.Tensor) ([]loc, error) {
	ls := make([]loc, len(ts))
	for i, t := range ts {
		l, err := locOf(t)
		if err != nil {
			return nil, err
		}
		ls[i] = l
	}
	return ls, nil
}

// dispatch adds a kernel: its parameter block prm (a struct of the
// kernel's words: params.go) at binding 0, the step's position at binding
// 1 when step is set, the tensors' buffers from binding 2 on (a buffer
// shared by tensors bound once: bind.go), and groups workgroups (spread
// over x and y past 65535).
func (c *compiler) dispatch(name, decode string, prm any, step bool, tensors []*gpu.Tensor, groups int) error {
	return c.dispatchPart(name, decode, prm, step, tensors, part{}, groups)
}

// dispatchPart is dispatch with tensors[0] bound as the byte range of
// wp (the whole buffer when its size is 0).
func (c *compiler) dispatchPart(name, decode string, prm any, step bool, tensors []*gpu.Tensor, wp part, groups int) error {
	if groups < 1 {
		return nil
	}
	if t := reflect.TypeOf(prm); t != kernelParams[name] {
		return fmt.Errorf("kernel %s is given parameters %v, not its %v", name, t, kernelParams[name])
	}
	words, err := paramWordsOf(prm)
	if err != nil {
		return fmt.Errorf("kernel %s: %w", name, err)
	}
	ks, err := c.source(name, decode)
	if err != nil {
		return err
	}
	raw := make([]byte, 4*paramWords)
	for i, v := range words {
		binary.LittleEndian.PutUint32(raw[4*i:], v)
	}
	ub, err := c.be.dev.TryCreateBuffer(&wgpu.BufferDescriptor{Label: name + ".params", Size: uint64(len(raw)), Usage: wgpu.BufferUsageUniform | wgpu.BufferUsageCopyDst})
	if err != nil {
		return err
	}
	c.p.owned = append(c.p.owned, ub)
	if err := c.be.queue.TryWriteBuffer(ub, 0, raw); err != nil {
		return err
	}
	storage := make([]storageEntry, len(tensors))
	for i, t := range tensors {
		b, err := c.buffer(t)
		if err != nil {
			return err
		}
		e := wgpu.BindGroupEntry{Binding: uint32(2 + i), Buffer: b, Size: wgpu.WholeSize}
		if i == 0 && wp.size > 0 {
			e.Offset, e.Size = wp.off, wp.size
		}
		storage[i] = storageEntry{e, t}
	}
	ms := bindOnce(ks, storage)
	pipe, err := c.mergedPipeline(name, decode, ks, ms)
	if err != nil {
		return err
	}
	storage = slices.DeleteFunc(storage, func(e storageEntry) bool {
		return slices.ContainsFunc(ms, func(m merge) bool { return m.from == e.Binding })
	})
	if err := checkAliasing(pipe, storage); err != nil {
		return fmt.Errorf("kernel %s: %w", name, err)
	}
	entries := []wgpu.BindGroupEntry{{Binding: 0, Buffer: ub, Size: wgpu.WholeSize}}
	if step {
		entries = append(entries, wgpu.BindGroupEntry{Binding: 1, Buffer: c.p.step, Size: wgpu.WholeSize})
	}
	for _, e := range storage {
		entries = append(entries, e.BindGroupEntry)
	}
	layout := pipe.pipe.GetBindGroupLayout(0)
	defer layout.Release()
	grp, err := c.be.dev.TryCreateBindGroup(&wgpu.BindGroupDescriptor{Label: name, Layout: layout, Entries: entries})
	if err != nil {
		return fmt.Errorf("kernel %s: %w", name, err)
	}
	gx := min(groups, c.be.gridLimit())
	gy := (groups + gx - 1) / gx
	if gy > maxGroups {
		return fmt.Errorf("kernel %s: %d workgroups is too many", name, groups)
	}
	c.p.kernels = append(c.p.kernels, &kernel{name: name, pipe: pipe.pipe, group: grp, grid: [3]uint32{uint32(gx), uint32(gy), 1}})
	return nil
}

// wantType is the operand check every backend shares.
var wantType = gpu.WantType

// checkIDs makes runs verify, on the host's copy, the ids of t (I32) when
// the host writes them (an external buffer no op of the graph writes):
// every id must be below bound. Ids made on the device (expert choices)
// are in range by construction, and the kernels guard them anyway.
func (c *compiler) checkIDs(t *gpu.Tensor, bound int, what, limit string) {
	r := t.Root()
	b, ok := r.Buf.(*buffer)
	if r.Kind != gpu.External || !ok || b.shadow == nil {
		return
	}
	for _, op := range c.g.Ops {
		for _, o := range op.Outputs() {
			if o.Root() == r {
				return
			}
		}
	}
	l, err := locOf(t)
	if err != nil {
		return
	}
	sh := t.Shape
	c.p.checks = append(c.p.checks, func() error {
		if b.deviceIDs {
			return nil
		}
		for i3 := 0; i3 < sh[3]; i3++ {
			for i2 := 0; i2 < sh[2]; i2++ {
				for i1 := 0; i1 < sh[1]; i1++ {
					for i0 := 0; i0 < sh[0]; i0++ {
						e := int(l.off) + i0*int(l.stride[0]) + i1*int(l.stride[1]) + i2*int(l.stride[2]) + i3*int(l.stride[3])
						id := int32(binary.LittleEndian.Uint32(b.shadow[4*e:]))
						if id < 0 || int(id) >= bound {
							return fmt.Errorf("%s id %d in %s is out of range (%s)", what, id, t.Name, fmt.Sprintf(limit, bound))
						}
					}
				}
			}
		}
		return nil
	})
}
