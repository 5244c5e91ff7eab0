package quant

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/internal/oracle"
)

// Test helpers of the block-format tests (dequantize/quantize).

var (
	// decodeTypes and encodeTypes are what the package promises.
	decodeTypes = []gguf.TensorType{gguf.F32, gguf.F16, gguf.BF16, gguf.Q4_0, gguf.Q4_1,
		gguf.Q5_0, gguf.Q5_1, gguf.Q8_0, gguf.Q8_1, gguf.Q2_K, gguf.Q3_K, gguf.Q4_K,
		gguf.Q5_K, gguf.Q6_K, gguf.Q8_K}
	encodeTypes = []gguf.TensorType{gguf.F32, gguf.F16, gguf.BF16, gguf.Q4_0, gguf.Q4_1,
		gguf.Q5_0, gguf.Q5_1, gguf.Q8_0, gguf.Q8_1, gguf.Q2_K, gguf.Q3_K, gguf.Q4_K,
		gguf.Q5_K, gguf.Q6_K, gguf.Q8_K}
)

func normalFloats(seed uint64, n int) []float32 {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

// awkwardFloats fills n values (a multiple of 256) block by block with
// inputs that stress the encoders' edges: wide dynamic ranges, outliers,
// exact ties on the quantization grids, zero and constant blocks, one-sided
// data, subnormal-sized values.
func awkwardFloats(seed uint64, n int) []float32 {
	r := rand.New(rand.NewPCG(seed, 7))
	x := make([]float32, n)
	for b := 0; b < n/256; b++ {
		blk := x[256*b : 256*b+256]
		kind := b % 12
		for i := range blk {
			g := float32(r.NormFloat64())
			switch kind {
			case 0:
				blk[i] = g
			case 1: // every 32 values at its own magnitude
				blk[i] = g * float32(math.Pow(10, float64((i/32)%8)-4))
			case 2:
				blk[i] = g
				if r.IntN(40) == 0 {
					blk[i] = g * 50
				}
			case 3: // multiples of 1/8: lands on rounding ties
				blk[i] = float32(r.IntN(129)-64) / 8
			case 4:
				blk[i] = 0
			case 5:
				blk[i] = 0.7
			case 6:
				if i == 77 {
					blk[i] = -3.25
				}
			case 7: // one-sided
				blk[i] = float32(math.Abs(float64(g))) + 2
			case 8:
				blk[i] = g * 1e-39
			case 9:
				blk[i] = g * g * g
			case 10: // half the groups empty
				if (i/16)%2 == 0 {
					blk[i] = g * 3
				}
			case 11: // a small set of repeated values
				blk[i] = []float32{-1, -0.5, 0, 0.5, 1, 0.25}[r.IntN(6)]
			}
		}
	}
	return x
}

// relRMS is rms(x - y) / rms(x).
func relRMS(x, y []float32) float64 {
	var num, den float64
	for i := range x {
		d := float64(x[i]) - float64(y[i])
		num += d * d
		den += float64(x[i]) * float64(x[i])
	}
	return math.Sqrt(num / den)
}

// roundTrip quantizes x as t and decodes it back.
func roundTrip(tb testing.TB, t gguf.TensorType, x []float32) ([]byte, []float32) {
	tb.Helper()
	q := make([]byte, t.RowBytes(len(x)))
	if err := Quantize(t, x, q); err != nil {
		tb.Fatal(err)
	}
	y := make([]float32, len(x))
	if err := Dequantize(t, q, y); err != nil {
		tb.Fatal(err)
	}
	return q, y
}

// storiesWeights returns every 2-D weight of the shared stories260K model
// as float32 (one slice per tensor), skipping when the test data is absent.
func storiesWeights(tb testing.TB) (names []string, ws [][]float32) {
	tb.Helper()
	shared := oracle.SharedDir()
	if shared == "" {
		tb.Skip("../shared is absent: no stories260K.gguf to test on")
	}
	r, err := gguf.Open(filepath.Join(shared, "models", "stories260K.gguf"))
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	for _, ti := range r.Tensors {
		if len(ti.Dims) != 2 {
			continue
		}
		data, err := r.TensorData(ti)
		if err != nil {
			tb.Fatal(err)
		}
		w := make([]float32, ti.Elements())
		if err := Dequantize(ti.Type, data, w); err != nil {
			tb.Fatalf("%s: %v", ti.Name, err)
		}
		names = append(names, ti.Name)
		ws = append(ws, w)
	}
	if len(ws) == 0 {
		tb.Fatal("stories260K.gguf has no 2-D tensors")
	}
	return names, ws
}
