package quantize

import (
	"strconv"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
)

// Model is what the type policy needs to know about the model being
// written: the facts llama.cpp's quantizer consults.
type Model struct {
	Arch    string // general.architecture
	Layers  int    // block_count
	Experts int    // expert_count (0 for dense models)
	Heads   int
	HeadsKV int
}

// Policy chooses each tensor's type under a scheme, in file order (the
// attn_v upgrades of the Q4_K_M mix depend on how many came before).
type Policy struct {
	scheme    Scheme
	model     Model
	tied      bool // no output.weight: token_embd doubles as the output head
	nAttnV    int
	iAttnV    int
	iFFNDown  int
	Fallbacks []string // tensors whose rows did not fit the wanted type
}

// NewPolicy prepares the policy for a file holding the named tensors.
func NewPolicy(s Scheme, m Model, names []string) *Policy {
	p := &Policy{scheme: s, model: m, tied: true}
	for _, n := range names {
		switch category(n) {
		case catOutput:
			p.tied = false
		case catAttnV:
			p.nAttnV++
		}
	}
	return p
}

// Quantizable reports whether a tensor is a weight matrix that gets
// converted at all; the rest (norms, biases, 1-D tensors, the MoE router)
// keep their type, as llama.cpp's quantizer keeps them.
func Quantizable(name string, dims []uint64) bool {
	// ggml counts dimensions up to the last one larger than 1
	nd := 1
	for i, d := range dims {
		if d > 1 {
			nd = i + 1
		}
	}
	if nd < 2 {
		return false
	}
	if !strings.HasSuffix(name, "weight") || strings.Contains(name, "_norm.weight") {
		return false
	}
	return !strings.Contains(name, "ffn_gate_inp.weight")
}

type tensorCategory int

const (
	catOther tensorCategory = iota
	catOutput
	catTokenEmbd
	catAttnV // attn_v, attn_qkv and attn_kv_b: the sensitive value projections
	catAttnK
	catAttnQ
	catAttnOut
	catFFNUp
	catFFNGate
	catFFNDown
)

func category(name string) tensorCategory {
	switch {
	case name == "output.weight":
		return catOutput
	case name == "token_embd.weight":
		return catTokenEmbd
	case strings.Contains(name, "attn_qkv.weight"), strings.Contains(name, "attn_kv_b.weight"), strings.Contains(name, "attn_v.weight"):
		return catAttnV
	case strings.Contains(name, "attn_k.weight"):
		return catAttnK
	case strings.Contains(name, "attn_q.weight"):
		return catAttnQ
	case strings.Contains(name, "attn_output.weight"):
		return catAttnOut
	case strings.Contains(name, "ffn_up"):
		return catFFNUp
	case strings.Contains(name, "ffn_gate"):
		return catFFNGate
	case strings.Contains(name, "ffn_down"):
		return catFFNDown
	}
	return catOther
}

// moreBits is llama.cpp's choice of which layers of a mix get the larger
// type: the first and last eighth, and every third layer between.
func moreBits(i, n int) bool {
	return i < n/8 || i >= 7*n/8 || (i-n/8)%3 == 2
}

func layerOf(name string) (int, bool) {
	if !strings.HasPrefix(name, "blk.") {
		return 0, false
	}
	rest := name[4:]
	dot := strings.IndexByte(rest, '.')
	if dot < 0 {
		return 0, false
	}
	i, err := strconv.Atoi(rest[:dot])
	return i, err == nil
}

// TypeFor returns the type of the next tensor, given its current type src
// (what non-weight tensors keep). Call it once per tensor, in file order.
func (p *Policy) TypeFor(name string, dims []uint64, src gguf.TensorType) gguf.TensorType {
	if !Quantizable(name, dims) {
		return src
	}
	def := p.scheme.Default
	if def.BlockSize() == 1 {
		return def
	}
	t := def
	if !p.scheme.Pure {
		t = p.mixType(name, dims, def)
	}
	return p.fallback(name, dims[0], t)
}

func (p *Policy) mixType(name string, dims []uint64, def gguf.TensorType) gguf.TensorType {
	f := p.scheme.File
	m := p.model
	t := def
	cat := category(name)
	switch {
	case cat == catOutput || cat == catTokenEmbd && p.tied:
		if dims[0]%uint64(def.BlockSize()) != 0 {
			t = gguf.Q8_0
		} else if def != gguf.Q8_0 {
			t = gguf.Q6_K
		}
	case cat == catTokenEmbd:
	case cat == catAttnV:
		switch {
		case (f == FileQ4_K_M || f == FileQ5_K_M) && moreBits(p.iAttnV, p.nAttnV):
			t = gguf.Q6_K
		case f == FileQ4_K_S && p.iAttnV < 4:
			t = gguf.Q5_K
		}
		if m.Arch == "llama" && m.Layers == 80 && m.Heads != m.HeadsKV && (t == gguf.Q3_K || t == gguf.Q4_K) {
			t = gguf.Q5_K // the 70B shares each attn_v among 8 heads: more bits cost little
		}
		if m.Experts == 8 {
			t = gguf.Q8_0
		}
		p.iAttnV++
	case cat == catAttnK:
		if m.Experts == 8 {
			t = gguf.Q8_0
		}
	case cat == catFFNDown:
		i := p.iFFNDown
		if m.Experts > 1 {
			i, _ = layerOf(name)
		}
		n := m.Layers
		switch {
		case (f == FileQ4_K_M || f == FileQ5_K_M) && moreBits(i, n):
			t = gguf.Q6_K
		case f == FileQ4_K_S && i < n/8:
			t = gguf.Q5_K
		}
		p.iFFNDown++
	case cat == catAttnOut:
		if m.Experts == 8 && (f == FileQ4_K_S || f == FileQ4_K_M) {
			t = gguf.Q5_K
		}
	}
	return t
}

// fallback replaces a type whose block does not divide the row length, the
// way llama.cpp does: K-quants step down to a 32-block type of similar
// size, and a row that fits no 32-block either is stored as F16.
func (p *Policy) fallback(name string, cols uint64, t gguf.TensorType) gguf.TensorType {
	if cols%uint64(t.BlockSize()) == 0 {
		return t
	}
	p.Fallbacks = append(p.Fallbacks, name)
	switch t {
	case gguf.Q2_K, gguf.Q3_K:
		t = gguf.Q4_0
	case gguf.Q4_K:
		t = gguf.Q5_0
	case gguf.Q5_K:
		t = gguf.Q5_1
	case gguf.Q6_K:
		t = gguf.Q8_0
	}
	if cols%uint64(t.BlockSize()) != 0 {
		t = gguf.F16
	}
	return t
}
