package quant

import (
	"encoding/binary"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// Each interleaved Q8_0 rows kernel by name, for TestInterleavedQ8_0Dot.
func q80x4RowsAVX2() func(w, a *byte, nb, nrows int, out *float32) { return dotQ8_0x4AVX2 }
func q80x4RowsVNNI() func(w, a *byte, nb, nrows int, out *float32) { return dotQ8_0x4VNNI }

// The AVX2 two-column kernel cannot take a -128 weight against a negative
// activation (negating -128 wraps): the case ColsQ8_0x4 keeps from it.
func TestCols2DeclinesMinQuant(t *testing.T) {
	if !q80x4.cols2 {
		t.Skip("no AVX2 two-column Q8_0 kernel on this machine")
	}
	const nrows, n = 4, 32
	w := make([]byte, gguf.Q8_0.RowBytes(n)*nrows)
	a := make([]byte, ActType(gguf.Q8_0).RowBytes(n))
	binary.LittleEndian.PutUint16(a, 0x3c00) // scale 1
	for j := 0; j < n; j++ {
		a[2+j] = byte(int8(-1 - j%7))
	}
	rb := gguf.Q8_0.RowBytes(n)
	for r := 0; r < nrows; r++ {
		binary.LittleEndian.PutUint16(w[r*rb:], 0x3c00)
		for j := 0; j < n; j++ {
			w[r*rb+2+j] = byte(int8(j - 16))
		}
	}
	w[2] = 0x80 // row 0's first quant: -128 against a = -1
	iw := make([]byte, len(w))
	if !InterleaveQ8_0(iw, w, nrows, n) {
		t.Fatal("the -128 quant not reported")
	}
	aux := make([]byte, ColAuxBytes(gguf.Q8_0, n))
	ColAux(gguf.Q8_0, a, 0, 1, aux)
	o0, o1 := make([]float32, nrows), make([]float32, nrows)
	dotCols2Q8_0x4AVX2(&iw[0], &a[0], &a[0], &aux[0], &aux[0], 1, nrows, &o0[0], &o1[0])
	if want := dotQ8_0G(w[:rb], a, n); o0[0] == want {
		t.Fatalf("the kernel took -128·-1 right (%g): the guard in ColsQ8_0x4 would be needless", want)
	}
	for r := 1; r < nrows; r++ {
		if want := dotQ8_0G(w[r*rb:(r+1)*rb], a, n); o0[r] != want {
			t.Fatalf("row %d without -128: %g, dotQ8_0G %g", r, o0[r], want)
		}
	}
}
