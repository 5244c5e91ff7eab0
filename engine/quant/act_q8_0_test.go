package quant

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// TestQuantizeQ8_0AsmMatchesGo: the assembly Q8_0 activation rounding
// writes the Go loop's bytes on random blocks of every magnitude, blocks
// of zeros, blocks with one value and blocks whose scaled values fall on
// ties between two integers.
func TestQuantizeQ8_0AsmMatchesGo(t *testing.T) {
	if !useAsm || !hasQuantizeQ8_0Asm {
		t.Skip("no Q8_0 rounding assembly on this machine")
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, nb := range []int{1, 2, 7, 40} {
		x := make([]float32, 32*nb)
		for b := range nb {
			xs := x[32*b : 32*b+32]
			scale := math.Pow(2, float64(rng.IntN(60)-40))
			switch b % 4 {
			case 0: // zeros (negative zero too)
				if rng.IntN(2) == 0 {
					xs[rng.IntN(32)] = float32(math.Copysign(0, -1))
				}
			case 1: // one value
				xs[rng.IntN(32)] = float32(rng.NormFloat64() * scale)
			case 2: // ties: amax 127 makes id 1, and halves land between integers
				xs[0] = 127
				for j := 1; j < 32; j++ {
					xs[j] = float32(rng.IntN(254)-127) + 0.5
				}
			default:
				for j := range xs {
					xs[j] = float32(rng.NormFloat64() * scale)
				}
			}
		}
		got, want := make([]byte, q80Bytes*nb+1), make([]byte, q80Bytes*nb+1)
		got[q80Bytes*nb], want[q80Bytes*nb] = 0x5a, 0x5a
		QuantizeAct(gguf.Q8_0, x, got[:q80Bytes*nb])
		quantizeActQ8_0Go(x, want[:q80Bytes*nb])
		if !bytes.Equal(got, want) {
			for b := range nb {
				g, w := got[q80Bytes*b:q80Bytes*(b+1)], want[q80Bytes*b:q80Bytes*(b+1)]
				if !bytes.Equal(g, w) {
					t.Errorf("%d blocks, block %d (%v): asm % x, Go % x", nb, b, x[32*b:32*b+4], g, w)
				}
			}
			if got[q80Bytes*nb] != 0x5a {
				t.Errorf("%d blocks: wrote past the row", nb)
			}
		}
	}
}
