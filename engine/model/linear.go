package model

import "github.com/emberllm/ember/gpu"

// Biases and per-tensor scales, in the order llama.cpp's graphs apply
// them. A projection without either is the bare product, so a file
// without them gives the graph it always gave.

// linear is l's product with x as llama.cpp's attention projections take
// it (build_qkv, build_attn): (W·x)·scale + bias.
func (b *builder) linear(l lin, x *gpu.Tensor, name string) *gpu.Tensor {
	return b.biased(b.scaled(b.matmul(l.w, x, name), l.scale, name), l.bias, name)
}

// ffnLinear is l's product with x as llama.cpp's feed-forward takes it
// (build_ffn): (W·x + bias)·scale.
func (b *builder) ffnLinear(l lin, x *gpu.Tensor, name string) *gpu.Tensor {
	return b.scaled(b.biased(b.matmul(l.w, x, name), l.bias, name), l.scale, name)
}

// scaled multiplies y by a per-tensor scale {1} (none: y itself): a Mul
// broadcasting the scalar, as ggml_mul(res, w_s).
func (b *builder) scaled(y *gpu.Tensor, s gpu.Buffer, name string) *gpu.Tensor {
	if s == nil {
		return y
	}
	out := b.act(name+".scaled", y.Shape[0], y.Shape[1], y.Shape[2], y.Shape[3])
	b.g.Do(&gpu.Mul{A: y, B: b.w(s, name+".scale"), Out: out})
	return out
}

// biased adds a bias {N} to every column of y {N, ...} (none: y itself):
// an Add broadcasting it, as ggml_add(cur, b).
func (b *builder) biased(y *gpu.Tensor, bias gpu.Buffer, name string) *gpu.Tensor {
	if bias == nil {
		return y
	}
	return b.add(y, b.w(bias, name+".bias"))
}

// expertScaled multiplies the chosen experts' products y {N, K, T} by
// their experts' scales (s {1, E}, a per-expert `.scale`; none: y
// itself), as llama.cpp's build_lora_mm_id: the scales of ids {K, T}
// gathered by an Embed (the ids as tokens of a one-column table), then a
// Mul broadcasting each over its product's row.
func (b *builder) expertScaled(y *gpu.Tensor, s gpu.Buffer, ids *gpu.Tensor, name string) *gpu.Tensor {
	if s == nil {
		return y
	}
	K, T := ids.Shape[0], ids.Shape[1]
	got := b.act(name+".expert_scales", 1, K*T)
	b.g.Do(&gpu.Embed{Table: b.w(s, name+".scale"), Tokens: b.g.Reshape(ids, K*T), Out: got})
	out := b.act(name+".scaled", y.Shape[0], y.Shape[1], y.Shape[2], y.Shape[3])
	b.g.Do(&gpu.Mul{A: y, B: b.g.Reshape(got, 1, K, T), Out: out})
	return out
}

// headLin is head for an output projection that may carry a bias
// (qwen2's output.bias, added to the logits as llama.cpp adds it): head
// writes the product into a scratch tensor of the logits' shape, and the
// bias is added from there into the step's logits.
func (b *builder) headLin(x *gpu.Tensor, norm gpu.Buffer, output lin) {
	if output.bias == nil && output.scale == nil {
		b.head(x, norm, output.w)
		return
	}
	logits := b.logits
	sh := logits.Shape
	y := b.act("output", sh[0], sh[1], sh[2], sh[3])
	b.logits = y
	b.head(x, norm, output.w)
	b.logits = logits
	y = b.scaled(y, output.scale, "output")
	if output.bias == nil {
		b.g.Do(&gpu.Copy{In: y, Out: logits})
		return
	}
	b.g.Do(&gpu.Add{A: y, B: b.w(output.bias, "output.bias"), Out: logits})
}
