package quantize

import (
	"fmt"

	"github.com/emberllm/ember/engine/gguf"
)

// The block-quantized types come from engine/quant. Until its quantizers
// land, only the float types are available here.

func blockCanEncode(t gguf.TensorType) bool { return false }
func blockCanDecode(t gguf.TensorType) bool { return false }

func blockEncode(t gguf.TensorType, src []float32, dst []byte) error {
	return fmt.Errorf("quantize: cannot write %s yet", t)
}

func blockDecode(t gguf.TensorType, src []byte, dst []float32) error {
	return fmt.Errorf("quantize: cannot read %s yet", t)
}
