package model

import (
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// builder writes one step's graph; its helpers are the building blocks the
// architecture files compose (norms, projections, attention, feed-forward).
type builder struct {
	g     *gpu.Graph
	c     *Config
	cache *Cache
	T     int
	bound map[gpu.Buffer]*gpu.Tensor
	// logits is the step's output {Vocab, outs}: the logits of the last
	// outs tokens (the last one alone when outs is 0).
	logits *gpu.Tensor
	outs   int
	n      int // counter for unique activation names
}

func (b *builder) w(buf gpu.Buffer, name string) *gpu.Tensor {
	if t, ok := b.bound[buf]; ok {
		return t
	}
	t := b.g.Bind(name, buf)
	b.bound[buf] = t
	return t
}

func (b *builder) act(name string, dims ...int) *gpu.Tensor {
	b.n++
	return b.g.New(fmt.Sprintf("%s#%d", name, b.n), gguf.F32, dims...)
}

func (b *builder) rmsnorm(in *gpu.Tensor, w gpu.Buffer, name string) *gpu.Tensor {
	out := b.act(name, in.Shape[0], in.Shape[1], in.Shape[2], in.Shape[3])
	var wt *gpu.Tensor
	if w != nil {
		wt = b.w(w, name)
	}
	b.g.Do(&gpu.RMSNorm{In: in, Weight: wt, Out: out, Eps: b.c.NormEps})
	return out
}

// matmul projects in {K, T} by w {K, N} into {N, T}.
func (b *builder) matmul(w gpu.Buffer, in *gpu.Tensor, name string) *gpu.Tensor {
	wt := b.w(w, name)
	out := b.act(name, wt.Shape[1], in.Shape[1], in.Shape[2], in.Shape[3])
	b.g.Do(&gpu.MatMul{W: wt, In: in, Out: out})
	return out
}

// add is x + y, y of x's shape or broadcast along the dimensions where
// its shape is 1 (a bias {N} over {N, T}).
func (b *builder) add(x, y *gpu.Tensor) *gpu.Tensor {
	out := b.act("add", x.Shape[0], x.Shape[1], x.Shape[2], x.Shape[3])
	b.g.Do(&gpu.Add{A: x, B: y, Out: out})
	return out
}

// rope rotates x {headDim, heads, T} in place.
func (b *builder) rope(x *gpu.Tensor, dims int, neox bool, factors gpu.Buffer) {
	op := &gpu.Rope{In: x, Out: x, Dims: dims, FreqBase: b.c.RopeBase, FreqScale: b.c.RopeScale, AttnFactor: 1, Ctx: b.cache.Ctx}
	if neox {
		op.Mode = gpu.RopeNeoX
	}
	if factors != nil {
		op.FreqFactors = b.w(factors, "rope_freqs")
	}
	b.yarn(op)
	b.g.Do(op)
}

// yarn sets YaRN's parameters the way llama.cpp derives them from the
// file's keys (ext_factor 1 when scaling, beta 32/1, attention factor).
func (b *builder) yarn(op *gpu.Rope) {
	if !b.c.YaRN {
		return
	}
	op.ExtFactor = 1
	op.BetaFast = 32
	op.BetaSlow = 1
	op.OrigCtx = b.c.YaRNOrigCtx
	op.AttnFactor = b.c.RopeAttnFac
}

// swiglu is the gated feed-forward: down(silu(gate(x)) * up(x)).
func (b *builder) swiglu(x *gpu.Tensor, gate, up, down lin, name string) *gpu.Tensor {
	return b.ffnLinear(down, b.gatedUnit(x, gate, up, name), name+".down")
}

// gatedUnit is the feed-forward before its down product: silu(gate(x)) * up(x).
func (b *builder) gatedUnit(x *gpu.Tensor, gate, up lin, name string) *gpu.Tensor {
	g := b.ffnLinear(gate, x, name+".gate")
	u := b.ffnLinear(up, x, name+".up")
	h := b.act(name+".act", g.Shape[0], g.Shape[1])
	b.g.Do(&gpu.SwiGLU{Gate: g, Up: u, Out: h})
	return h
}

// lastTokens views the columns of x {D, T} whose logits the step
// computes: the last outs (the last one when outs is 0).
func (b *builder) lastTokens(x *gpu.Tensor) *gpu.Tensor {
	n := max(b.outs, 1)
	if x.Shape[1] == n {
		return x
	}
	return b.g.View("last", x, (x.Shape[1]-n)*x.Stride[1], gpu.Shape4(x.Shape[0], n), nil)
}

// afterAttention returns the residual x after layer l's attention: in the
// last of layers layers, the columns of the tokens whose logits are wanted
// alone (usually the last token's). The last layer's feed-forward runs on
// them alone, as in llama.cpp, which gathers its output rows there (and so
// makes a one-output step's products single-token ones, with llama.cpp's
// single-token summation order).
func (b *builder) afterAttention(l, layers int, x *gpu.Tensor) *gpu.Tensor {
	if l == layers-1 {
		return b.lastTokens(x)
	}
	return x
}

// head is the output: the hidden states of the tokens whose logits are
// wanted, normed and projected onto the vocabulary, straight into the
// step's logits buffer.
func (b *builder) head(x *gpu.Tensor, norm, output gpu.Buffer) {
	x = b.rmsnorm(b.lastTokens(x), norm, "output_norm")
	b.g.Do(&gpu.MatMul{W: b.w(output, "output"), In: x, Out: b.logits})
}

// attnScale is 1/sqrt(d) as llama.cpp computes it, in float32 (sqrtf,
// then a float division), which can be an ulp away from the correctly
// rounded value; the scores it scales feed F16 roundings.
func attnScale(d int) float32 { return 1 / float32(math.Sqrt(float64(d))) }
