package gpu

// Op is one typed operation of a graph. Backends switch on the concrete
// type; Inputs and Outputs let them plan memory and ordering.
type Op interface {
	OpName() string
	Inputs() []*Tensor
	Outputs() []*Tensor
}

// Embed gathers rows of a (possibly quantized) table: Out[:, t] =
// dequant(Table[:, Tokens[t]]). Table {D, V}, Tokens I32 {T}, Out F32 {D, T}.
type Embed struct{ Table, Tokens, Out *Tensor }

// RMSNorm normalises each row of In over Shape[0] and multiplies by Weight
// (Shape {Shape[0]}) when Weight is not nil: Out = In / sqrt(mean(In²)+Eps)
// * Weight. In may be a strided view (per-head q/k norms).
type RMSNorm struct {
	In, Weight, Out *Tensor
	Eps             float32
}

// MatMul multiplies by a weight: Out[n, b, t] = Σ_k W[k, n, b] · In[k, b, t].
// W {K, N, B} in any weight type, In F32 {K, B, T}, Out F32 {N, B, T}. B > 1
// is a batch of matrices, one per head (MLA's absorbed projections); with
// B = 1 this is the plain In {K, T} -> Out {N, T}.
type MatMul struct{ W, In, Out *Tensor }

// MatMulID multiplies by experts chosen per token: Out[n, s, t] =
// Σ_k W[k, n, IDs[s, t]] · In[k, s', t], where s' = s when In has S rows per
// token and 0 when it has one (the same input goes to every chosen expert).
// W {K, N, E}, In F32 {K, S or 1, T}, IDs I32 {S, T}, Out F32 {N, S, T}.
// Only the selected experts' weights are read.
type MatMulID struct{ W, In, IDs, Out *Tensor }

// RopeMode is the pairing of rotated elements.
type RopeMode uint8

const (
	// RopeNormal rotates adjacent pairs (x[2i], x[2i+1]): llama.
	RopeNormal RopeMode = iota
	// RopeNeoX rotates halves (x[i], x[i+n/2]): qwen3, deepseek2 (whose
	// converter permutes weights so NeoX-style data reads as normal: the
	// model chooses).
	RopeNeoX
)

// Rope rotates the first Dims elements of each head by position: token t at
// Params.Pos+t. In/Out {HeadDim, H, T} (Out may equal In). Frequencies are
// FreqBase^(-2i/Dims) * FreqScale, divided by FreqFactors[i] when set
// (llama3's rope_freqs). YaRN applies when ExtFactor != 0 or AttnFactor != 1,
// with ggml's ramp between BetaFast and BetaSlow over OrigCtx. Ctx, when
// set, bounds the positions (Params.Pos+T <= Ctx: the KV cache's length),
// for backends that tabulate the angles of every position once.
type Rope struct {
	In, Out     *Tensor
	FreqFactors *Tensor
	Dims        int
	Mode        RopeMode
	FreqBase    float32
	FreqScale   float32
	ExtFactor   float32
	AttnFactor  float32
	BetaFast    float32
	BetaSlow    float32
	OrigCtx     int
	Ctx         int
}

// KVStore writes a step's keys and values into the caches at rows
// Params.Pos+t. K {DK, T} (heads folded into DK), CacheK {DK, Ctx}; V and
// CacheV likewise, or nil when values are read from the key cache (MLA).
// Caches may be F32 or F16.
type KVStore struct{ K, V, CacheK, CacheV *Tensor }

// Attention is causal scaled-dot-product attention over the cache: query
// head h of token t attends to cache rows 0..Params.Pos+t of KV head
// h / (H / HKV). Q F32 {DK, H, T}; CacheK {DK·HKV, Ctx}; CacheV {DV·HKV, Ctx},
// or nil with VFromK: values are the first DV elements of each key head
// (MLA's single latent cache). Out F32 {DV, H, T}.
type Attention struct {
	Q, CacheK, CacheV, Out *Tensor
	HKV                    int
	DV                     int
	VFromK                 bool
	Scale                  float32
}

// SwiGLU is Out = silu(Gate) · Up, elementwise.
type SwiGLU struct{ Gate, Up, Out *Tensor }

// Add is Out = A + B, elementwise; B broadcasts along any dimension where
// its shape is 1, as Mul's does (a bias {N} added to every column of
// {N, T}). A and Out have the same shape.
type Add struct{ A, B, Out *Tensor }

// Mul is Out = A · B, elementwise; B broadcasts along any dimension where
// its shape is 1.
type Mul struct{ A, B, Out *Tensor }

// Scale is Out = In · S.
type Scale struct {
	In, Out *Tensor
	S       float32
}

// Copy copies In to Out, converting between F32 and F16 and between
// layouts (views to contiguous).
type Copy struct{ In, Out *Tensor }

// Gating is how router logits become expert weights.
type Gating uint8

const (
	// GateSoftmax: softmax over all experts, then top-k.
	GateSoftmax Gating = iota
	// GateSigmoid: sigmoid per expert, then top-k (GLM-4.7-Flash).
	GateSigmoid
	// GateSoftmaxTopK: top-k of the logits, softmax over the chosen.
	GateSoftmaxTopK
)

// Route selects K experts per token from router logits, on the device.
// Logits F32 {E, T}; Bias F32 {E} or nil is added for selection only
// (exp_probs_b), not to the weights; Norm rescales the chosen weights to sum
// to one; Scale multiplies them (routed scaling factor). IDs I32 {K, T},
// Weights F32 {K, T}.
type Route struct {
	Logits, Bias, IDs, Weights *Tensor
	K                          int
	Gating                     Gating
	Norm                       bool
	Scale                      float32
}

// WeightedSum combines expert outputs: Out[n, t] = Σ_s In[n, s, t] ·
// Weights[s, t]. In {N, S, T}, Weights {S, T}, Out {N, T}.
type WeightedSum struct{ In, Weights, Out *Tensor }

// Argmax writes the index of the largest value of each row (ties: lowest
// index). In F32 {V, T}, Out I32 {T}.
type Argmax struct{ In, Out *Tensor }

// TopK writes the K largest values of each row and their indices, largest
// first (ties: lower index first). In F32 {V, T}; IDs I32 {K, T}; Vals F32
// {K, T}. WebGPU takes K up to 1024.
type TopK struct {
	In, IDs, Vals *Tensor
	K             int
}

func ts(t ...*Tensor) []*Tensor {
	out := t[:0:0]
	for _, x := range t {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

func (o *Embed) OpName() string       { return "embed" }
func (o *Embed) Inputs() []*Tensor    { return ts(o.Table, o.Tokens) }
func (o *Embed) Outputs() []*Tensor   { return ts(o.Out) }
func (o *RMSNorm) OpName() string     { return "rmsnorm" }
func (o *RMSNorm) Inputs() []*Tensor  { return ts(o.In, o.Weight) }
func (o *RMSNorm) Outputs() []*Tensor { return ts(o.Out) }
func (o *MatMul) OpName() string      { return "matmul" }
func (o *MatMul) Inputs() []*Tensor   { return ts(o.W, o.In) }
func (o *MatMul) Outputs() []*Tensor  { return ts(o.Out) }
func (o *MatMulID) OpName() string    { return "matmul_id" }
func (o *MatMulID) Inputs() []*Tensor { return ts(o.W, o.In, o.IDs) }
func (o *MatMulID) Outputs() []*Tensor {
	return ts(o.Out)
}
func (o *Rope) OpName() string           { return "rope" }
func (o *Rope) Inputs() []*Tensor        { return ts(o.In, o.FreqFactors) }
func (o *Rope) Outputs() []*Tensor       { return ts(o.Out) }
func (o *KVStore) OpName() string        { return "kv_store" }
func (o *KVStore) Inputs() []*Tensor     { return ts(o.K, o.V) }
func (o *KVStore) Outputs() []*Tensor    { return ts(o.CacheK, o.CacheV) }
func (o *Attention) OpName() string      { return "attention" }
func (o *Attention) Inputs() []*Tensor   { return ts(o.Q, o.CacheK, o.CacheV) }
func (o *Attention) Outputs() []*Tensor  { return ts(o.Out) }
func (o *SwiGLU) OpName() string         { return "swiglu" }
func (o *SwiGLU) Inputs() []*Tensor      { return ts(o.Gate, o.Up) }
func (o *SwiGLU) Outputs() []*Tensor     { return ts(o.Out) }
func (o *Add) OpName() string            { return "add" }
func (o *Add) Inputs() []*Tensor         { return ts(o.A, o.B) }
func (o *Add) Outputs() []*Tensor        { return ts(o.Out) }
func (o *Mul) OpName() string            { return "mul" }
func (o *Mul) Inputs() []*Tensor         { return ts(o.A, o.B) }
func (o *Mul) Outputs() []*Tensor        { return ts(o.Out) }
func (o *Scale) OpName() string          { return "scale" }
func (o *Scale) Inputs() []*Tensor       { return ts(o.In) }
func (o *Scale) Outputs() []*Tensor      { return ts(o.Out) }
func (o *Copy) OpName() string           { return "copy" }
func (o *Copy) Inputs() []*Tensor        { return ts(o.In) }
func (o *Copy) Outputs() []*Tensor       { return ts(o.Out) }
func (o *Route) OpName() string          { return "route" }
func (o *Route) Inputs() []*Tensor       { return ts(o.Logits, o.Bias) }
func (o *Route) Outputs() []*Tensor      { return ts(o.IDs, o.Weights) }
func (o *WeightedSum) OpName() string    { return "weighted_sum" }
func (o *WeightedSum) Inputs() []*Tensor { return ts(o.In, o.Weights) }
func (o *WeightedSum) Outputs() []*Tensor {
	return ts(o.Out)
}
func (o *Argmax) OpName() string     { return "argmax" }
func (o *Argmax) Inputs() []*Tensor  { return ts(o.In) }
func (o *Argmax) Outputs() []*Tensor { return ts(o.Out) }
func (o *TopK) OpName() string       { return "topk" }
func (o *TopK) Inputs() []*Tensor    { return ts(o.In) }
func (o *TopK) Outputs() []*Tensor   { return ts(o.IDs, o.Vals) }
