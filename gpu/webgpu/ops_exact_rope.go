//go:build cgo || js

package webgpu

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/emberllm/ember/gpu"
)

// Exact rope (Options.Exact): the CPU's cos and sin are glibc's sincosf,
// float64 arithmetic that WGSL has not, of float32 angles; WGSL's own
// differ in the last bits for thousands of values. So the host computes
// the CPU's table (gpu.Rope.CosSin) for every position the graph can
// reach, once when it compiles, and rope_exact rotates with it in the
// CPU's rounding.

// ropeTableKey names the rope ops of a graph that rotate by the same
// angles (every layer's q and k) and so share one table.
type ropeTableKey struct {
	dims                               int
	base, scale, ext, attn, fast, slow float32
	orig                               int
	factors                            *gpu.Tensor
	rows                               int
}

func (c *compiler) lowerRopeExact(o *gpu.Rope) error {
	hd, H, T := o.In.Shape[0], o.In.Shape[1], o.In.Shape[2]
	ls, err := locsOf(o.In, o.Out)
	if err != nil {
		return err
	}
	rows, err := c.ropePositions(o)
	if err != nil {
		return err
	}
	key := ropeTableKey{o.Dims, o.FreqBase, o.FreqScale, o.ExtFactor, o.AttnFactor, o.BetaFast, o.BetaSlow, o.OrigCtx, o.FreqFactors, rows}
	tab := c.ropeTables[key]
	if tab == nil {
		if tab, err = c.ropeTable(o, rows); err != nil {
			return err
		}
		if c.ropeTables == nil {
			c.ropeTables = map[ropeTableKey]*gpu.Tensor{}
		}
		c.ropeTables[key] = tab
	}
	// Runs past the table must fail, not read another position's angles.
	if c.p.ropeRows == 0 || rows < c.p.ropeRows {
		c.p.ropeRows = rows
	}
	neox := 0
	if o.Mode == gpu.RopeNeoX {
		neox = 1
	}
	var p params
	p.u(hd, H, T, o.Dims, neox, 0)
	p.loc(ls[0])
	p.loc(ls[1])
	return c.dispatch("rope_exact", "", p, true, []*gpu.Tensor{o.In, tab, o.Out}, groupsOf64(o.Dims/2*H*T))
}

// ropePositions is how many positions the table needs: the op's Ctx, or
// the rows of the KV caches the graph stores into or attends over,
// whichever is fewer; a graph that names neither has no bound to
// tabulate up to.
func (c *compiler) ropePositions(o *gpu.Rope) (int, error) {
	rows := o.Ctx
	for _, op := range c.g.Ops {
		var cache *gpu.Tensor
		switch x := op.(type) {
		case *gpu.KVStore:
			cache = x.CacheK
		case *gpu.Attention:
			cache = x.CacheK
		default:
			continue
		}
		if rows <= 0 || cache.Shape[1] < rows {
			rows = cache.Shape[1]
		}
	}
	if rows <= 0 {
		return 0, fmt.Errorf("exact rope needs a bound on positions: set Rope.Ctx or store into a KV cache in the same graph")
	}
	if rows < c.g.Tokens {
		return 0, fmt.Errorf("exact rope: %d positions cannot hold a step of %d tokens", rows, c.g.Tokens)
	}
	return rows, nil
}

// ropeTable uploads cos and sin (times mscale) of every rotated pair at
// positions 0..rows-1, computed by the CPU backend's code.
func (c *compiler) ropeTable(o *gpu.Rope, rows int) (*gpu.Tensor, error) {
	n := rows * o.Dims
	if uint64(4*n) > c.be.limits.MaxStorageBufferBindingSize {
		return nil, fmt.Errorf("exact rope: the table of %d positions x %d values (%d MiB) exceeds the storage binding limit", rows, o.Dims, 4*n>>20)
	}
	factors, err := c.ropeFactors(o)
	if err != nil {
		return nil, err
	}
	a := o.Angles()
	// One position's floats at a time: a long context's table is tens of
	// MiB, and wasm's memory is small.
	cs := make([]float32, o.Dims)
	raw := make([]byte, 4*n)
	for pos := 0; pos < rows; pos++ {
		o.CosSin(cs, pos, a, factors)
		for i, v := range cs {
			binary.LittleEndian.PutUint32(raw[4*(pos*o.Dims+i):], math.Float32bits(v))
		}
	}
	name := c.g.Name + ".rope_table"
	b, err := c.be.newBuffer(name, tF32, gpu.Shape4(o.Dims, rows))
	if err != nil {
		return nil, err
	}
	c.p.owned = append(c.p.owned, b.buf)
	if err := b.Write(0, raw); err != nil {
		return nil, err
	}
	// A tensor of a throwaway graph: dispatch binds tensors, and this
	// buffer belongs to no graph.
	return gpu.NewGraph(name, 1).Bind(name, b), nil
}

// ropeFactors reads the op's frequency factors back to the host (nil
// without): the table needs their values when the graph compiles, so
// they must be a buffer the graph itself does not write.
func (c *compiler) ropeFactors(o *gpu.Rope) ([]float32, error) {
	if o.FreqFactors == nil {
		return nil, nil
	}
	r := o.FreqFactors.Root()
	b, ok := r.Buf.(*buffer)
	if r.Kind != gpu.External || !ok {
		return nil, fmt.Errorf("exact rope: FreqFactors %s must be a buffer the host wrote", r.Name)
	}
	for _, op := range c.g.Ops {
		for _, out := range op.Outputs() {
			if out.Root() == r {
				return nil, fmt.Errorf("exact rope: FreqFactors %s is written by the graph, its values are needed when it compiles", r.Name)
			}
		}
	}
	raw := make([]byte, 4*(o.Dims/2))
	if err := b.Read(0, raw); err != nil {
		return nil, err
	}
	f := make([]float32, o.Dims/2)
	for i := range f {
		f[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return f, nil
}
