package quant

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// TestDotRowsF32MatchesRowByRow: VecDotRows of F32 rows, every row's
// steps in one assembly call then its tail, gives each row what the pure
// Go DotF32Vec gives it alone, bit for bit, for lengths with and without
// whole 64-value steps and tails of each kind (16s, 8s, single values).
func TestDotRowsF32MatchesRowByRow(t *testing.T) {
	if !useAsm || !hasDotStepsAsm {
		t.Skip("no float step kernel on this machine")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 8, 31, 64, 100, 128, 172, 192, 255, 300} {
		for _, nrows := range []int{1, 3, 17} {
			w := make([]byte, 4*n*nrows)
			act := make([]byte, 4*n)
			for i := 0; i < len(w); i += 4 {
				binary.LittleEndian.PutUint32(w[i:], math.Float32bits(float32(rng.NormFloat64())))
			}
			for i := 0; i < len(act); i += 4 {
				binary.LittleEndian.PutUint32(act[i:], math.Float32bits(float32(rng.NormFloat64())))
			}
			got := make([]float32, nrows+1)
			got[nrows] = 42 // past the rows: must stay
			VecDotRows(gguf.F32, w, nrows, act, n, got)
			x := f32View(act, n)
			for r := range nrows {
				var want float32
				withAsm(false, func() { want = DotF32Vec(f32View(w[4*n*r:], n), x) })
				if math.Float32bits(got[r]) != math.Float32bits(want) {
					t.Errorf("n=%d rows=%d row %d: %g, alone %g", n, nrows, r, got[r], want)
				}
			}
			if got[nrows] != 42 {
				t.Errorf("n=%d rows=%d: wrote past the rows", n, nrows)
			}
		}
	}
}
