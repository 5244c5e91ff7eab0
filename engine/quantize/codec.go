package quantize

import (
	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quant"
)

// CanEncode reports whether weights can be written as type t. Q8_K and
// Q8_1 are activation formats llama.cpp never stores in files.
func CanEncode(t gguf.TensorType) bool {
	return t != gguf.Q8_K && t != gguf.Q8_1 && quant.CanQuantize(t)
}

// CanDecode reports whether tensors of type t can be read as float32.
func CanDecode(t gguf.TensorType) bool { return quant.CanDequantize(t) }

// Encode converts src (whole blocks) into dst, exactly t's size for
// len(src) values.
func Encode(t gguf.TensorType, src []float32, dst []byte) error {
	return quant.Quantize(t, src, dst)
}

// Decode converts src, whole blocks of type t, into dst.
func Decode(t gguf.TensorType, src []byte, dst []float32) error {
	return quant.Dequantize(t, src, dst)
}
