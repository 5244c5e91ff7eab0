package cpu

import (
	"fmt"
	"sort"
	"sync/atomic"

	"github.com/emberllm/ember/gpu"
)

// kernel is one closure of a compiled program. Serial kernels run on
// worker 0 alone; the others are called on every worker with (ith, nth)
// and split their work through a splitter.
type kernel struct {
	name   string
	serial bool
	reads  []ref
	writes []ref
	build  func() func(ith, nth int) // called once memory is planned
	run    func(ith, nth int)
}

// ref is a piece of memory a kernel touches: a tensor, a scratch area of
// the arena, or a private region (program-owned Go memory, by id).
type ref struct {
	t    *gpu.Tensor
	s    *scratch
	priv int
}

// scratch is arena memory private to a few kernels (quantized
// activations), placed by the planner like an activation.
type scratch struct {
	size int
	off  int
	mem  []byte
}

// span is a byte range of one memory region (0: the arena; >0 an external
// buffer; <0 a private region).
type span struct{ region, lo, hi int }

type compiler struct {
	be  *Backend
	g   *gpu.Graph
	nth int
	p   *program

	kernels  []*kernel
	scratch  []*scratch
	nextPriv int

	written map[*gpu.Tensor]bool // activation roots written so far
	version map[*gpu.Tensor]int  // writes per root, to invalidate caches
	quants  map[quantKey]*quantEntry
	ropes   map[ropeKey]*ropeCache

	regions map[*buffer]int
	arena   []byte
	offsets map[*gpu.Tensor]int // activation root -> arena offset
}

// Compile validates g and lowers it into a program.
func (b *Backend) Compile(g *gpu.Graph) (gpu.Program, error) {
	if g == nil {
		return nil, fmt.Errorf("cpu: compile: nil graph")
	}
	c := &compiler{
		be: b, g: g, nth: b.threads,
		p:       &program{be: b, name: g.Name, tokens: g.Tokens, maxPos: 1 << 40, span: g.Span, nops: len(g.Ops)},
		written: map[*gpu.Tensor]bool{}, version: map[*gpu.Tensor]int{},
		quants: map[quantKey]*quantEntry{}, ropes: map[ropeKey]*ropeCache{},
		regions: map[*buffer]int{}, offsets: map[*gpu.Tensor]int{},
	}
	if err := c.compile(); err != nil {
		return nil, fmt.Errorf("cpu: compile %s: %w", g.Name, err)
	}
	return c.p, nil
}

func (c *compiler) compile() error {
	if c.g.Tokens < 1 {
		return fmt.Errorf("graph processes %d tokens, want at least 1", c.g.Tokens)
	}
	for i, t := range c.g.Tensors {
		if err := c.checkTensor(i, t); err != nil {
			return err
		}
	}
	for i, op := range c.g.Ops {
		if op == nil {
			return fmt.Errorf("op %d is nil", i)
		}
		if err := c.lower(op); err != nil {
			return fmt.Errorf("op %d (%s): %w", i, op.OpName(), err)
		}
	}
	c.plan()
	for _, k := range c.kernels {
		k.run = k.build()
		c.p.kernels = append(c.p.kernels, k)
	}
	c.p.barrier = c.barriers()
	return nil
}

// lower validates one op and appends its kernels.
func (c *compiler) lower(op gpu.Op) error {
	for _, t := range op.Inputs() {
		if err := c.inGraph(t); err != nil {
			return err
		}
		if r := t.Root(); r.Kind == gpu.Activation && !c.written[r] {
			return fmt.Errorf("reads activation %s before any op writes it", t.Name)
		}
		if isInterleaved(t) && !readsInterleaved(op, t) {
			return fmt.Errorf("reads %s, a weight stored interleaved, which only matmul, matmul_id and embed take whole", t.Name)
		}
	}
	for _, t := range op.Outputs() {
		if err := c.inGraph(t); err != nil {
			return err
		}
		if r := t.Root(); r.Kind == gpu.External && r.Buf.(*buffer).readOnly {
			return fmt.Errorf("writes %s, a read-only weight", t.Name)
		}
	}
	var err error
	switch o := op.(type) {
	case *gpu.Embed:
		err = c.lowerEmbed(o)
	case *gpu.RMSNorm:
		err = c.lowerRMSNorm(o)
	case *gpu.MatMul:
		err = c.lowerMatMul(o)
	case *gpu.MatMulID:
		err = c.lowerMatMulID(o)
	case *gpu.Rope:
		err = c.lowerRope(o)
	case *gpu.KVStore:
		err = c.lowerKVStore(o)
	case *gpu.Attention:
		err = c.lowerAttention(o)
	case *gpu.SwiGLU:
		err = c.lowerSwiGLU(o)
	case *gpu.Add:
		err = c.lowerAdd(o)
	case *gpu.Mul:
		err = c.lowerMul(o)
	case *gpu.Scale:
		err = c.lowerScale(o)
	case *gpu.Copy:
		err = c.lowerCopy(o)
	case *gpu.Route:
		err = c.lowerRoute(o)
	case *gpu.WeightedSum:
		err = c.lowerWeightedSum(o)
	case *gpu.Argmax:
		err = c.lowerArgmax(o)
	case *gpu.TopK:
		err = c.lowerTopK(o)
	default:
		err = fmt.Errorf("op type %T is not supported by the cpu backend", op)
	}
	if err != nil {
		return err
	}
	for _, t := range op.Outputs() {
		r := t.Root()
		c.written[r] = true
		c.version[r]++
	}
	return nil
}

func (c *compiler) inGraph(t *gpu.Tensor) error {
	if t.ID < 0 || t.ID >= len(c.g.Tensors) || c.g.Tensors[t.ID] != t {
		return fmt.Errorf("tensor %s does not belong to graph %s", t.Name, c.g.Name)
	}
	return nil
}

// checkTensor validates a tensor's shape, kind and (for views) bounds.
func (c *compiler) checkTensor(i int, t *gpu.Tensor) error {
	if t == nil {
		return fmt.Errorf("tensor %d is nil", i)
	}
	if t.ID != i {
		return fmt.Errorf("tensor %s has id %d at index %d", t.Name, t.ID, i)
	}
	if _, err := checkShape(t.Type, t.Shape); err != nil {
		return fmt.Errorf("tensor %s: %w", t.Name, err)
	}
	switch t.Kind {
	case gpu.Activation:
		if !t.Contiguous() {
			return fmt.Errorf("activation %s has non-contiguous strides %v", t.Name, t.Stride)
		}
	case gpu.External:
		b, ok := t.Buf.(*buffer)
		if !ok || b == nil {
			return fmt.Errorf("tensor %s is bound to %T, not a cpu buffer", t.Name, t.Buf)
		}
		if b.owner != c.be {
			return fmt.Errorf("tensor %s is bound to buffer %s of another cpu backend", t.Name, b.name)
		}
		if b.typ != t.Type || b.shape != t.Shape || !t.Contiguous() {
			return fmt.Errorf("tensor %s (%s%v) does not match its buffer %s (%s%v)", t.Name, t.Type, t.Shape, b.name, b.typ, b.shape)
		}
		if _, ok := c.regions[b]; !ok {
			c.regions[b] = len(c.regions) + 1
		}
	case gpu.View:
		base := t.Base
		if base == nil || base.Kind == gpu.View {
			return fmt.Errorf("view %s must alias a non-view tensor", t.Name)
		}
		if err := c.inGraph(base); err != nil {
			return fmt.Errorf("view %s: %w", t.Name, err)
		}
		if base.Type != t.Type {
			return fmt.Errorf("view %s is %s but its base %s is %s", t.Name, t.Type, base.Name, base.Type)
		}
		lo, hi, err := extent(t)
		if err != nil {
			return fmt.Errorf("view %s: %w", t.Name, err)
		}
		if lo < 0 || hi > gpu.Bytes(base.Type, base.Shape) {
			return fmt.Errorf("view %s covers bytes [%d, %d) outside %s's %d bytes", t.Name, lo, hi, base.Name, gpu.Bytes(base.Type, base.Shape))
		}
		if align := min(t.Type.TypeSize(), 4); t.Type.BlockSize() == 1 {
			for d := 0; d < 4; d++ {
				if t.Stride[d]%align != 0 {
					return fmt.Errorf("view %s: stride %v is not a multiple of the %d-byte element", t.Name, t.Stride, align)
				}
			}
			if t.Off%align != 0 {
				return fmt.Errorf("view %s: offset %d is not a multiple of the %d-byte element", t.Name, t.Off, align)
			}
		}
	default:
		return fmt.Errorf("tensor %s has unknown kind %d", t.Name, t.Kind)
	}
	return nil
}

// extent is the byte range [lo, hi) of a tensor within its root.
func extent(t *gpu.Tensor) (lo, hi int, err error) {
	lo, hi = t.Off, t.Off
	if t.Kind != gpu.View {
		return 0, gpu.Bytes(t.Type, t.Shape), nil
	}
	for d := 0; d < 4; d++ {
		if t.Stride[d] < 0 {
			return 0, 0, fmt.Errorf("negative stride %v", t.Stride)
		}
	}
	blocks := t.Shape[0] / t.Type.BlockSize()
	hi += (blocks-1)*t.Stride[0] + t.Type.TypeSize()
	for d := 1; d < 4; d++ {
		hi += (t.Shape[d] - 1) * t.Stride[d]
	}
	return lo, hi, nil
}

// add appends a kernel.
func (c *compiler) add(k *kernel) { c.kernels = append(c.kernels, k) }

func (c *compiler) newScratch(size int) *scratch {
	s := &scratch{size: size}
	c.scratch = append(c.scratch, s)
	return s
}

func (c *compiler) newPriv() int {
	c.nextPriv--
	return c.nextPriv
}

func (c *compiler) newSplitter() *splitter {
	s := &splitter{}
	c.p.splitters = append(c.p.splitters, s)
	return s
}

// mem is the memory of t from its first byte to the end of its root
// (valid once memory is planned).
func (c *compiler) mem(t *gpu.Tensor) []byte {
	r := t.Root()
	off := 0
	if t.Kind == gpu.View {
		off = t.Off
	}
	if r.Kind == gpu.External {
		return r.Buf.(*buffer).data[off:]
	}
	base := c.offsets[r]
	return c.arena[base+off : base+gpu.Bytes(r.Type, r.Shape)]
}

// plan places every activation root and scratch area in one arena: items
// whose kernel lifetimes overlap get disjoint bytes, largest first.
func (c *compiler) plan() {
	type item struct {
		t           *gpu.Tensor
		s           *scratch
		size        int
		first, last int
		off         int
	}
	idx := map[any]*item{}
	var items []*item
	touch := func(r ref, k int) {
		var key any
		var it *item
		switch {
		case r.t != nil:
			root := r.t.Root()
			if root.Kind != gpu.Activation {
				return
			}
			key = root
			if idx[key] == nil {
				it = &item{t: root, size: gpu.Bytes(root.Type, root.Shape), first: k}
			}
		case r.s != nil:
			key = r.s
			if idx[key] == nil {
				it = &item{s: r.s, size: r.s.size, first: k}
			}
		default:
			return
		}
		if it != nil {
			it.size = (it.size + 63) &^ 63
			idx[key] = it
			items = append(items, it)
		}
		idx[key].last = k
	}
	for k, kn := range c.kernels {
		for _, r := range kn.reads {
			touch(r, k)
		}
		for _, r := range kn.writes {
			touch(r, k)
		}
	}
	order := append([]*item(nil), items...)
	sort.SliceStable(order, func(i, j int) bool { return order[i].size > order[j].size })
	var placed []*item
	total := 0
	for _, it := range order {
		var live []*item
		for _, p := range placed {
			if p.first <= it.last && it.first <= p.last {
				live = append(live, p)
			}
		}
		sort.Slice(live, func(i, j int) bool { return live[i].off < live[j].off })
		off := 0
		for _, p := range live {
			if off+it.size <= p.off {
				break
			}
			off = max(off, p.off+p.size)
		}
		it.off = off
		placed = append(placed, it)
		total = max(total, off+it.size)
	}
	c.arena = alignedBytes(total)
	c.p.arenaBytes = total
	for _, it := range items {
		if it.t != nil {
			c.offsets[it.t] = it.off
		} else {
			it.s.off = it.off
			it.s.mem = c.arena[it.off : it.off+it.s.size]
		}
	}
}

// spans resolves a kernel's refs to byte ranges.
func (c *compiler) spans(rs []ref) []span {
	out := make([]span, 0, len(rs))
	for _, r := range rs {
		switch {
		case r.t != nil:
			root := r.t.Root()
			lo, hi, _ := extent(r.t)
			if root.Kind == gpu.External {
				out = append(out, span{c.regions[root.Buf.(*buffer)], lo, hi})
			} else {
				base := c.offsets[root]
				out = append(out, span{0, base + lo, base + hi})
			}
		case r.s != nil:
			out = append(out, span{0, r.s.off, r.s.off + r.s.size})
		default:
			out = append(out, span{r.priv, 0, 1})
		}
	}
	return out
}

func overlaps(a, b []span) bool {
	for _, x := range a {
		for _, y := range b {
			if x.region == y.region && x.lo < y.hi && y.lo < x.hi {
				return true
			}
		}
	}
	return false
}

// barriers decides before which kernels all workers must meet: where a
// kernel reads memory written since the last barrier or writes memory read
// or written since then, unless both kernels run on worker 0 alone (which
// executes them in order anyway).
func (c *compiler) barriers() []bool {
	type access struct {
		serial        bool
		reads, writes []span
	}
	out := make([]bool, len(c.kernels))
	var pending []access
	for i, k := range c.kernels {
		a := access{k.serial, c.spans(k.reads), c.spans(k.writes)}
		for _, p := range pending {
			if p.serial && a.serial {
				continue
			}
			if overlaps(p.writes, a.reads) || overlaps(p.writes, a.writes) || overlaps(p.reads, a.writes) {
				out[i] = true
				pending = pending[:0]
				break
			}
		}
		pending = append(pending, a)
	}
	return out
}

// splitter hands out chunks of a range of work to workers; it is reset
// before every run.
type splitter struct {
	next atomic.Int64
	_    [56]byte
}

// each calls f on successive chunks [lo, hi) of [0, n) until none is left.
func (s *splitter) each(n, chunk int, f func(lo, hi int)) {
	for {
		i := int(s.next.Add(1) - 1)
		lo := i * chunk
		if lo >= n {
			return
		}
		f(lo, min(lo+chunk, n))
	}
}

// eachUnit returns a kernel body calling do(worker, u) for every unit u
// of [0, units): on worker 0 alone when serial, else spread over the
// workers through sp one unit at a time.
func eachUnit(serial bool, units int, sp *splitter, do func(w, u int)) func(ith, nth int) {
	if serial {
		return func(int, int) {
			for u := 0; u < units; u++ {
				do(0, u)
			}
		}
	}
	return func(ith, _ int) {
		sp.each(units, 1, func(lo, hi int) {
			for u := lo; u < hi; u++ {
				do(ith, u)
			}
		})
	}
}

// chunkFor picks a chunk size giving each worker about four chunks, at
// least min units each.
func chunkFor(n, nth, minChunk int) int {
	ch := (n + 4*nth - 1) / (4 * nth)
	return max(ch, minChunk, 1)
}
