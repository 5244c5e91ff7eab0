package metal

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

const (
	tF32 = gguf.F32
	tF16 = gguf.F16
	tI32 = gguf.I32
)

// compiler lowers a graph's ops into commands, one kernel each, as the
// WebGPU backend lowers them into its twins of these kernels.
type compiler struct {
	be *Backend
	g  *gpu.Graph
	p  *program
	// acts is the memory of each activation root.
	acts map[*gpu.Tensor]memory
	// rounded holds activations already rounded for a product, so products
	// sharing an input (q, k, v; gate, up) round it once; an op writing the
	// input's memory drops the entry.
	rounded map[roundKey]operand
	// scratch is the attention scores' memory, one for every layer.
	scratch *gpu.Tensor
}

// Compile lowers every op of g into commands, in order.
func (b *Backend) Compile(g *gpu.Graph) (gpu.Program, error) {
	if b.closed {
		return nil, fmt.Errorf("metal: compile %s: the backend is closed", g.Name)
	}
	if err := gpu.Validate(g); err != nil {
		return nil, fmt.Errorf("metal: compile %s: %w", g.Name, err)
	}
	if g.Tokens < 1 {
		return nil, fmt.Errorf("metal: compile %s: a step of %d tokens", g.Name, g.Tokens)
	}
	p := &program{be: b, name: g.Name, tokens: g.Tokens, maxPos: math.MaxInt32, span: g.Span}
	c := &compiler{be: b, g: g, p: p, acts: map[*gpu.Tensor]memory{}, rounded: map[roundKey]operand{}}
	for i, op := range g.Ops {
		c.dropRounded(op)
		if err := c.lower(op); err != nil {
			p.release()
			return nil, fmt.Errorf("metal: compile %s: op %d (%s): %w", g.Name, i, op.OpName(), err)
		}
	}
	return p, nil
}

func (c *compiler) lower(op gpu.Op) error {
	for _, t := range op.Outputs() {
		if r := t.Root(); r.Kind == gpu.External {
			if b, ok := r.Buf.(*buffer); ok && b.readOnly {
				return fmt.Errorf("writes %s, a read-only weight", t.Name)
			}
		}
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
	case *gpu.MatMulID:
		return c.lowerMatMulID(o)
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
	case *gpu.Copy:
		return c.lowerCopy(o)
	}
	return fmt.Errorf("op %s is not implemented on Metal yet", op.OpName())
}

// dropRounded forgets the rounded copies of the memory op writes.
func (c *compiler) dropRounded(op gpu.Op) {
	for _, o := range op.Outputs() {
		for k := range c.rounded {
			if k.root == o.Root() {
				delete(c.rounded, k)
			}
		}
	}
}

// operand is a tensor as a kernel takes it: the buffer argument holding
// it and where its elements are from the argument's start.
type operand struct {
	t   *gpu.Tensor
	arg arg
	loc loc
}

// operand binds t, whose elements the kernels address one at a time (F32,
// F16, I32): a weight's segment holding it, a host buffer, or an
// activation's memory, allocated on first use.
func (c *compiler) operand(t *gpu.Tensor) (operand, error) {
	es := t.Type.TypeSize()
	if t.Type.BlockSize() != 1 {
		return operand{}, fmt.Errorf("%s is %s: kernels address F32, F16 and I32 elements only", t.Name, t.Type)
	}
	a, start, err := c.bind(t)
	if err != nil {
		return operand{}, err
	}
	if start%es != 0 {
		return operand{}, fmt.Errorf("%s starts at byte %d of its buffer, not a multiple of its %d-byte elements", t.Name, start, es)
	}
	op := operand{t: t, arg: a}
	op.loc.Off = uint32(start / es)
	for i, s := range t.Stride {
		if s%es != 0 || s < 0 {
			return operand{}, fmt.Errorf("%s has byte stride %d, not a multiple of its %d-byte elements", t.Name, s, es)
		}
		op.loc.Stride[i] = uint32(s / es)
	}
	return op, nil
}

// operands is operand of each tensor, or the first error.
func (c *compiler) operands(ts ...*gpu.Tensor) ([]operand, error) {
	out := make([]operand, len(ts))
	for i, t := range ts {
		o, err := c.operand(t)
		if err != nil {
			return nil, err
		}
		out[i] = o
	}
	return out, nil
}

// bind returns the argument holding t and the byte where t starts in it.
func (c *compiler) bind(t *gpu.Tensor) (arg, int, error) {
	r := t.Root()
	off := 0
	if t.Kind == gpu.View {
		off = t.Off
	}
	if r.Kind == gpu.External {
		b, ok := r.Buf.(*buffer)
		if !ok || b.be != c.be {
			return arg{}, 0, fmt.Errorf("%s is bound to a buffer of another backend", r.Name)
		}
		lo, hi, err := gpu.Extent(t)
		if err != nil {
			return arg{}, 0, fmt.Errorf("%s: %w", t.Name, err)
		}
		for _, s := range b.segs {
			if lo >= s.lo && hi <= s.hi {
				a := arg{mem: s.mem, off: s.at &^ (bindAlign - 1)}
				return a, s.at - a.off + lo - s.lo + (off - lo), nil
			}
		}
		return arg{}, 0, fmt.Errorf("%s spans segments of weight %s (split at the device's %d MiB buffers)", t.Name, r.Name, c.be.bufferLimit()>>20)
	}
	m := c.acts[r]
	if m == nil {
		var err error
		if m, err = c.be.dev.alloc(max(gpu.Bytes(r.Type, r.Shape), 4)); err != nil {
			return arg{}, 0, fmt.Errorf("activation %s: %w", r.Name, err)
		}
		c.acts[r] = m
		c.p.owned = append(c.p.owned, m)
	}
	return arg{mem: m}, off, nil
}

// dispatch adds a command: kernel name built for decode, its parameters
// prm (the struct kernelParams names for it), the step's position when
// step is set, the buffer arguments args from index 2 on, and groups
// threadgroups.
func (c *compiler) dispatch(name, decode string, prm any, step bool, args []arg, groups int) error {
	if groups < 1 {
		return nil
	}
	if t := reflect.TypeOf(prm); t != kernelParams[name] {
		return fmt.Errorf("kernel %s is given parameters %v, not its %v", name, t, kernelParams[name])
	}
	raw, err := packParams(prm)
	if err != nil {
		return fmt.Errorf("kernel %s: %w", name, err)
	}
	kp, err := c.be.kernel(name, decode)
	if err != nil {
		return err
	}
	if err := checkArgs(kp, step, len(args)); err != nil {
		return err
	}
	if groups > math.MaxUint32 {
		return fmt.Errorf("kernel %s: %d threadgroups is too many", name, groups)
	}
	c.p.cmds = append(c.p.cmds, &command{name: name, pipe: kp.pipe, k: kp.k, params: raw, step: step, args: args, groups: groups})
	return nil
}

// checkArgs holds a dispatch to its kernel's signature: parameters at
// buffer 0, the step at 1 exactly when step is set, and n buffers from 2.
func checkArgs(kp *kernelPipe, step bool, n int) error {
	seen := map[int]bool{}
	for _, p := range kp.k.Params {
		if i, ok := p.Index("buffer"); ok {
			seen[i] = true
		}
	}
	want := map[int]bool{0: true}
	if step {
		want[1] = true
	}
	for i := range n {
		want[2+i] = true
	}
	if !reflect.DeepEqual(seen, want) {
		return fmt.Errorf("kernel %s takes buffers %v; the dispatch binds %v", kp.k.Name, keys(seen), keys(want))
	}
	return nil
}

func keys(m map[int]bool) []int {
	var out []int
	for i := range len(m) + 8 {
		if m[i] {
			out = append(out, i)
		}
	}
	return out
}

// args is the buffer arguments of operands, in order.
func args(ops ...operand) []arg {
	out := make([]arg, len(ops))
	for i, o := range ops {
		out[i] = o.arg
	}
	return out
}

// groupsOf is the number of threadgroups of n threads covering count.
func groupsOf(count, n int) int { return (count + n - 1) / n }

// checkIDs makes runs verify the ids of t (I32) when the host writes them
// (an external buffer no op of the graph writes): every id must be below
// bound. Ids made on the device (expert choices) are in range by
// construction, and the kernels guard them anyway.
func (c *compiler) checkIDs(t *gpu.Tensor, o operand, bound int, what, limit string) {
	r := t.Root()
	if r.Kind != gpu.External {
		return
	}
	for _, op := range c.g.Ops {
		for _, w := range op.Outputs() {
			if w.Root() == r {
				return
			}
		}
	}
	sh := t.Shape
	c.p.checks = append(c.p.checks, func() error {
		l := o.loc
		ids := o.arg.mem.host(o.arg.off + 4*int(l.Off)) // from the first id
		for i3 := 0; i3 < sh[3]; i3++ {
			for i2 := 0; i2 < sh[2]; i2++ {
				for i1 := 0; i1 < sh[1]; i1++ {
					for i0 := 0; i0 < sh[0]; i0++ {
						e := i0*int(l.Stride[0]) + i1*int(l.Stride[1]) + i2*int(l.Stride[2]) + i3*int(l.Stride[3])
						id := int32(binary.LittleEndian.Uint32(ids[4*e:]))
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
