// Package gguf reads and writes GGUF files, the model container of llama.cpp.
//
// A file is a header (magic, version, counts), key/value metadata, tensor
// infos (name, shape, type, offset), padding to the alignment, then the
// tensor data. Two ways in: a sequential stream (ReadHeader + Stream), which
// never holds the file in memory and is how the browser loads a model, and a
// random-access file (Open), memory-mapped on unix. Every length and count in
// the header is checked before anything is allocated for it, so hostile files
// fail with an error naming the problem and its offset.
package gguf

import (
	"fmt"
	"slices"
)

// TensorType is ggml's tensor element type id as stored in a tensor info.
type TensorType uint32

// The ggml type ids. Gaps are ids that ggml removed; they stay unknown.
const (
	F32     TensorType = 0
	F16     TensorType = 1
	Q4_0    TensorType = 2
	Q4_1    TensorType = 3
	Q5_0    TensorType = 6
	Q5_1    TensorType = 7
	Q8_0    TensorType = 8
	Q8_1    TensorType = 9
	Q2_K    TensorType = 10
	Q3_K    TensorType = 11
	Q4_K    TensorType = 12
	Q5_K    TensorType = 13
	Q6_K    TensorType = 14
	Q8_K    TensorType = 15
	IQ2_XXS TensorType = 16
	IQ2_XS  TensorType = 17
	IQ3_XXS TensorType = 18
	IQ1_S   TensorType = 19
	IQ4_NL  TensorType = 20
	IQ3_S   TensorType = 21
	IQ2_S   TensorType = 22
	IQ4_XS  TensorType = 23
	I8      TensorType = 24
	I16     TensorType = 25
	I32     TensorType = 26
	I64     TensorType = 27
	F64     TensorType = 28
	IQ1_M   TensorType = 29
	BF16    TensorType = 30
	TQ1_0   TensorType = 34
	TQ2_0   TensorType = 35
	MXFP4   TensorType = 39
	NVFP4   TensorType = 40
	Q1_0    TensorType = 41
	Q2_0    TensorType = 42
)

// typeTraits is the storage shape of one tensor type: a block of BlockSize
// elements takes TypeSize bytes.
type typeTraits struct {
	name      string
	blockSize int
	typeSize  int
}

var traits = map[TensorType]typeTraits{
	F32:     {"F32", 1, 4},
	F16:     {"F16", 1, 2},
	Q4_0:    {"Q4_0", 32, 18},
	Q4_1:    {"Q4_1", 32, 20},
	Q5_0:    {"Q5_0", 32, 22},
	Q5_1:    {"Q5_1", 32, 24},
	Q8_0:    {"Q8_0", 32, 34},
	Q8_1:    {"Q8_1", 32, 36},
	Q2_K:    {"Q2_K", 256, 84},
	Q3_K:    {"Q3_K", 256, 110},
	Q4_K:    {"Q4_K", 256, 144},
	Q5_K:    {"Q5_K", 256, 176},
	Q6_K:    {"Q6_K", 256, 210},
	Q8_K:    {"Q8_K", 256, 292},
	IQ2_XXS: {"IQ2_XXS", 256, 66},
	IQ2_XS:  {"IQ2_XS", 256, 74},
	IQ3_XXS: {"IQ3_XXS", 256, 98},
	IQ1_S:   {"IQ1_S", 256, 50},
	IQ4_NL:  {"IQ4_NL", 32, 18},
	IQ3_S:   {"IQ3_S", 256, 110},
	IQ2_S:   {"IQ2_S", 256, 82},
	IQ4_XS:  {"IQ4_XS", 256, 136},
	I8:      {"I8", 1, 1},
	I16:     {"I16", 1, 2},
	I32:     {"I32", 1, 4},
	I64:     {"I64", 1, 8},
	F64:     {"F64", 1, 8},
	IQ1_M:   {"IQ1_M", 256, 56},
	BF16:    {"BF16", 1, 2},
	TQ1_0:   {"TQ1_0", 256, 54},
	TQ2_0:   {"TQ2_0", 256, 66},
	MXFP4:   {"MXFP4", 32, 17},
	NVFP4:   {"NVFP4", 64, 36},
	Q1_0:    {"Q1_0", 128, 18},
	Q2_0:    {"Q2_0", 64, 18},
}

// traitTable is traits indexed by id: sizes are asked for in the inner
// loops of the CPU kernels' callers, where a map lookup shows in profiles.
var traitTable = func() (tab [64]typeTraits) {
	for t, tr := range traits {
		tab[t] = tr
	}
	return tab
}()

func (t TensorType) traits() typeTraits {
	if int(t) < len(traitTable) {
		return traitTable[t]
	}
	return traits[t]
}

// Known reports whether t is a type id this package knows the layout of.
func (t TensorType) Known() bool { return t.traits().blockSize != 0 }

func (t TensorType) String() string {
	if tr, ok := traits[t]; ok {
		return tr.name
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}

// BlockSize is the number of elements in one block (1 for plain types, 0
// for an unknown type).
func (t TensorType) BlockSize() int { return t.traits().blockSize }

// TypeSize is the number of bytes one block takes (0 for an unknown type).
func (t TensorType) TypeSize() int { return t.traits().typeSize }

// RowBytes is the number of bytes a row of n elements takes; n must be a
// multiple of the block size. It is 0 for an unknown type rather than a
// division by zero, since callers may hold ids read from untrusted files.
func (t TensorType) RowBytes(n int) int {
	bs := t.BlockSize()
	if bs == 0 {
		return 0
	}
	return n / bs * t.TypeSize()
}

// Types lists every known tensor type in id order.
func Types() []TensorType {
	out := make([]TensorType, 0, len(traits))
	for t := range traits {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// ParseTensorType maps a name such as "Q4_K" or "f16" to its type.
func ParseTensorType(name string) (TensorType, error) {
	for t, tr := range traits {
		if equalFold(tr.name, name) {
			return t, nil
		}
	}
	return 0, fmt.Errorf("unknown tensor type %q", name)
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if 'a' <= y && y <= 'z' {
			y -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
