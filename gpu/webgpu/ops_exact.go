//go:build cgo || js

package webgpu

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
	"github.com/emberllm/ember/gpu"
)

// Exact products (Options.Exact): matmul_exact and matmul_id_exact sum
// each output in the order the CPU backend would for the weight's type and
// shape, as engine/quant's RowOrder names it, from the same 8-bit
// activations and scales. The parallel kernels' sums differ from the CPU's
// in the last bits, and in a model those bits grow where values are
// rounded (the F16 cache, the next product's 8-bit activations) or
// compared (a router's near tie); these do not differ at all.

// actScales is where a rounded copy's block scales start (an element
// index into it) and the values a block.
type actScales struct{ start, bs int }

// scalesOf is the scales of the rounded copy in, or none (a float copy).
func (c *compiler) scalesOf(in *gpu.Tensor) actScales {
	if s, ok := c.scales[in]; ok {
		return s
	}
	return actScales{bs: 1}
}

// interleavedOnCPU reports whether the CPU backend stores a weight of type
// w with rows rows a matrix interleaved (its default, copied weights), and
// so sums it in interleaved Q4_0's order.
func interleavedOnCPU(w gpu.Type, rows int) bool {
	return w == gguf.Q4_0 && quant.Interleavable(rows) && quant.InterleavedFast()
}

// checkExact refuses the one order the kernels cannot follow: ggml's F16
// dot adds the values past its last 64-value step in float64.
func checkExact(o quant.Order, w gpu.Type, K int, name string) error {
	if o == quant.OrderFloatVec && w == gguf.F16 && K%64 != 0 {
		return fmt.Errorf("W %s: exact products of F16 rows of %d values (not a multiple of 64) are not supported", name, K)
	}
	return nil
}

// exactBlockRows is exact_blocks.wgsl's R, the rows a workgroup: its 128
// threads take 8 blocks of each row at a time.
const exactBlockRows = 16

// exactBlockGroups is how many of those workgroups cover n rows.
func exactBlockGroups(n int) int { return (n + exactBlockRows - 1) / exactBlockRows }

// splitExactBlocks says whether an exact product of weights of type w
// for T tokens takes the kernels that find a row's block sums with a
// whole workgroup (matmul_exact_blocks, matmul_id_exact_blocks) rather
// than one thread an output. One thread an output leaves a decode product
// a few thousand threads, each walking its row alone (on the H100 exact
// decode went from 18.5 to 49.9 tok/s with them). A prefill chunk has
// threads enough, and there the one-thread kernel is the faster for
// blocks of 32 values (H100, exact pp512: llama3.2:1b Q4_0 1060 against
// 669 tok/s, qwen3:0.6b Q8_0 1808 against 1256), but not for the
// K-quants' blocks of 256, which one thread walks a value at a time
// (llama3.1:8b Q4_K_M 58 against 121).
//
// Float weights take matmul_exact_lanes for as few tokens.
func splitExactBlocks(w gpu.Type, T int) bool {
	switch {
	case w == gguf.F32 || w == gguf.F16:
		return false
	case w.BlockSize() == 256:
		return true
	}
	return T < exactFewTokens
}

// exactFewTokens is the token count from which a product of blocks of 32
// or of floats has threads enough at one thread an output.
const exactFewTokens = 8

// exactEpilogue is what an exact product writes besides its output: out
// = P + other (epiAdd), the gated unit of P and other (epiSiluGate,
// epiSiluUp), or nothing (epiNone).
type exactEpilogue struct {
	kind       int
	other, out *gpu.Tensor
	le, lf     loc
}

func (c *compiler) lowerMatMulExact(o *gpu.MatMul, in *gpu.Tensor, li, lo loc, dec string, K, N, B, T, rb int, parts []part, epi exactEpilogue) error {
	tokens := T
	if o.W.Type == gguf.F32 && !o.In.Contiguous() {
		tokens = 1 // the CPU backend's batch of strided F32 inputs
	}
	il := B == 1 && interleavedOnCPU(o.W.Type, N)
	first := quant.RowOrder(o.W.Type, B == 1, N, K, tokens, 0, il)
	rest := quant.RowOrder(o.W.Type, B == 1, N, K, tokens, tokens-1, il)
	for _, ord := range []quant.Order{first, rest} {
		if err := checkExact(ord, o.W.Type, K, o.W.Name); err != nil {
			return err
		}
	}
	sc := c.scalesOf(in)
	for _, pt := range parts {
		n := pt.r1 - pt.r0
		if B > 1 {
			n = N
		}
		var p params
		p.u(K, n, B, T, rb)
		p.loc(li)
		p.loc(shiftRows(lo, pt.r0))
		p.u(int(first), tokens&^3, int(rest), pt.base, sc.start, sc.bs, 0)
		p.u(epi.kind)
		p.loc(shiftRows(epi.le, pt.r0))
		p.loc(shiftRows(epi.lf, pt.r0))
		kernel, groups := "matmul_exact", (n*B*T+63)/64
		switch {
		case splitExactBlocks(o.W.Type, T):
			kernel, groups = "matmul_exact_blocks", exactBlockGroups(n)*B*T
		case T < exactFewTokens:
			// Float weights (the blocks kernels take the rest): a
			// workgroup an output, a thread an accumulator.
			kernel, groups = "matmul_exact_lanes", n*B*T
		}
		if err := c.dispatchPart(kernel, dec, p, false, []*gpu.Tensor{o.W, in, o.Out, epi.other, epi.out}, pt, groups); err != nil {
			return err
		}
	}
	return nil
}

func (c *compiler) lowerMatMulIDExact(o *gpu.MatMulID, in *gpu.Tensor, li, lid, lo loc, dec string, parts []part) error {
	K, N, E := o.W.Shape[0], o.W.Shape[1], o.W.Shape[2]
	S, T, Sin := o.IDs.Shape[0], o.IDs.Shape[1], o.In.Shape[1]
	// llama.cpp multiplies by experts one token at a time.
	ord := quant.RowOrder(o.W.Type, true, N, K, 1, 0, interleavedOnCPU(o.W.Type, N))
	if err := checkExact(ord, o.W.Type, K, o.W.Name); err != nil {
		return err
	}
	sc := c.scalesOf(in)
	for _, pt := range parts {
		var p params
		p.u(K, N, S, T, o.W.Type.RowBytes(K), E, Sin)
		p.loc(li)
		p.loc(lid)
		p.loc(lo)
		p.u(pt.r0, pt.r1, pt.base, b2i(pt.last))
		p.u(int(ord), sc.start, sc.bs, 0)
		kernel, groups := "matmul_id_exact", (N*S*T+63)/64
		if splitExactBlocks(o.W.Type, T) {
			kernel, groups = "matmul_id_exact_blocks", exactBlockGroups(N)*S*T
		}
		if err := c.dispatchPart(kernel, dec, p, false, []*gpu.Tensor{o.W, in, o.IDs, o.Out}, pt, groups); err != nil {
			return err
		}
	}
	return nil
}

// exactQKVRun is qkvRun for exact mode: the query, key and value products
// whose weights are all of o's type, quantized, or nil. It also takes a
// feed-forward's gate and up (the SwiGLU then its own dispatch, where the
// up product's epilogue would take it: two dispatches either way).
func (c *compiler) exactQKVRun(o *gpu.MatMul, in *gpu.Tensor, B, T, parts int) []*gpu.MatMul {
	if !splitExactBlocks(o.W.Type, T) {
		return nil
	}
	run := c.qkvRun(o, in, B, T, parts)
	for i, m := range run {
		if m.W.Type != o.W.Type {
			run = run[:i]
			break
		}
	}
	if len(run) < 2 {
		return nil
	}
	return run
}

// lowerQKVExact adds the matmul_exact_qkv dispatch of an exactQKVRun; li
// is the input's location, dec the weights' decoder.
func (c *compiler) lowerQKVExact(run []*gpu.MatMul, in *gpu.Tensor, li loc, dec string) error {
	K, rb := run[0].W.Shape[0], run[0].W.Type.RowBytes(run[0].W.Shape[0])
	NQ, NK := run[0].W.Shape[1], run[1].W.Shape[1]
	outs, ws, ls, err := qkvOperands(run)
	if err != nil {
		return err
	}
	var orders, bases [3]int
	for i, w := range ws {
		N := w.Shape[1]
		orders[i] = int(quant.RowOrder(w.Type, true, N, K, 1, 0, interleavedOnCPU(w.Type, N)))
		ps, err := c.rowParts(w, rb, N)
		if err != nil {
			return err
		}
		bases[i] = ps[0].base
	}
	sc := c.scalesOf(in)
	var p params
	p.u(K, NQ, NK, len(run), rb)
	p.loc(li)
	p.loc(ls[0])
	p.loc(ls[1])
	p.loc(ls[2])
	p.u(orders[0], orders[1], orders[2], bases[0], bases[1], bases[2], sc.start, sc.bs, 0)
	c.fused = len(run) - 1
	return c.dispatch("matmul_exact_qkv", dec, p, false, []*gpu.Tensor{ws[0], in, outs[0], outs[1], outs[2], ws[1], ws[2]}, exactBlockGroups(NQ)+(len(run)-1)*exactBlockGroups(NK))
}
