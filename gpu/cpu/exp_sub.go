package cpu

import "github.com/emberllm/ember/engine/quant"

// expSub writes x[i] = quant.ExpGGML(x[i] - m), the exponentials of a
// softmax, eight at a time in assembly where the CPU has AVX2
// (bit-identical to the loop below): at small head sizes the softmax is a
// large part of a decode step.
func expSub(x []float32, m float32) {
	done := 0
	if useExpAsm && len(x) >= 8 {
		done = len(x) &^ 7
		expSubAVX2(&x[0], m, done)
	}
	for i := done; i < len(x); i++ {
		x[i] = quant.ExpGGML(x[i] - m)
	}
}
