//go:build !amd64

package quant

import "github.com/emberllm/ember/engine/gguf"

// AVX2 reports whether this CPU runs the package's AVX2 kernels: never
// off amd64.
func AVX2() bool { return false }

// colsKernel is never called off amd64, which has no four-column kernels
// (asmCols stays empty).
func colsKernel(w gguf.TensorType, rows *byte, nb, nrows int, c *cols4) {
	panic("quant: no four-column kernel for " + w.String())
}
