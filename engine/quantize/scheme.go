package quantize

import (
	"fmt"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
)

// FileType is llama.cpp's llama_ftype, stored as general.file_type: the
// scheme a file was quantized with (not the type of every tensor).
type FileType uint32

// The file types this package can produce.
const (
	FileF32    FileType = 0
	FileF16    FileType = 1
	FileQ4_0   FileType = 2
	FileQ4_1   FileType = 3
	FileQ8_0   FileType = 7
	FileQ5_0   FileType = 8
	FileQ5_1   FileType = 9
	FileQ2_K   FileType = 10
	FileQ3_K_M FileType = 12
	FileQ4_K_S FileType = 14
	FileQ4_K_M FileType = 15
	FileQ5_K_S FileType = 16
	FileQ5_K_M FileType = 17
	FileQ6_K   FileType = 18
	FileBF16   FileType = 32
)

// Scheme is what a user asks for: a mix (Q4_K_M: a default type plus
// per-tensor upgrades) or one type for every weight matrix (Pure).
type Scheme struct {
	Name    string
	File    FileType
	Default gguf.TensorType
	Pure    bool // no per-tensor upgrades: every weight matrix gets Default
	Mix     bool // a llama.cpp ftype with per-tensor rules (Q4_K_M ...)
}

var mixes = map[string]Scheme{
	"Q4_K_S": {Name: "Q4_K_S", File: FileQ4_K_S, Default: gguf.Q4_K, Mix: true},
	"Q4_K_M": {Name: "Q4_K_M", File: FileQ4_K_M, Default: gguf.Q4_K, Mix: true},
	"Q5_K_S": {Name: "Q5_K_S", File: FileQ5_K_S, Default: gguf.Q5_K, Mix: true},
	"Q5_K_M": {Name: "Q5_K_M", File: FileQ5_K_M, Default: gguf.Q5_K, Mix: true},
}

// fileTypeOf is the file type llama.cpp reports for a file whose weights
// are mostly of type t (its guess when general.file_type is absent).
var fileTypeOf = map[gguf.TensorType]FileType{
	gguf.F32: FileF32, gguf.F16: FileF16, gguf.BF16: FileBF16,
	gguf.Q4_0: FileQ4_0, gguf.Q4_1: FileQ4_1, gguf.Q5_0: FileQ5_0, gguf.Q5_1: FileQ5_1,
	gguf.Q8_0: FileQ8_0, gguf.Q2_K: FileQ2_K, gguf.Q3_K: FileQ3_K_M, gguf.Q4_K: FileQ4_K_M,
	gguf.Q5_K: FileQ5_K_M, gguf.Q6_K: FileQ6_K,
}

// ParseScheme accepts a mix name (Q4_K_M, Q4_K_S, Q5_K_M, Q5_K_S) or a
// tensor type name (F32, F16, BF16, Q8_0, Q4_0, Q4_K ...). With pure set, a
// plain type is used for every weight matrix; otherwise a plain type is
// treated like llama.cpp's ftype of that name (the output and tied
// embedding get Q6_K, as llama-quantize does).
func ParseScheme(name string, pure bool) (Scheme, error) {
	up := strings.ToUpper(strings.TrimSpace(name))
	if s, ok := mixes[up]; ok {
		s.Pure = pure
		return s, nil
	}
	t, err := gguf.ParseTensorType(up)
	if err != nil {
		return Scheme{}, fmt.Errorf("unknown type or scheme %q (want one of F32 F16 BF16 Q8_0 Q4_0 Q4_1 Q5_0 Q5_1 Q4_K Q5_K Q6_K, or a mix: Q4_K_S Q4_K_M Q5_K_S Q5_K_M)", name)
	}
	ft, ok := fileTypeOf[t]
	if !ok || !CanEncode(t) {
		return Scheme{}, fmt.Errorf("cannot write tensors of type %s", t)
	}
	switch t {
	case gguf.Q2_K, gguf.Q3_K, gguf.Q4_K, gguf.Q5_K:
		// llama.cpp has no ftype of exactly these names, only mixes
		// (Q4_K_M ...): the plain name means this type everywhere
		pure = true
	}
	return Scheme{Name: t.String(), File: ft, Default: t, Pure: pure}, nil
}

// Quantized reports whether the scheme produces block-quantized types (the
// file then carries general.quantization_version).
func (s Scheme) Quantized() bool { return s.Default.BlockSize() > 1 }
