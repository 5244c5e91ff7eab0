package quant

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

func TestActType(t *testing.T) {
	want := map[gguf.TensorType]gguf.TensorType{
		gguf.F32: gguf.F32, gguf.F16: gguf.F32, gguf.BF16: gguf.F32,
		gguf.Q4_0: gguf.Q8_0, gguf.Q5_0: gguf.Q8_0, gguf.Q8_0: gguf.Q8_0,
		gguf.Q4_1: gguf.Q8_1, gguf.Q5_1: gguf.Q8_1,
		gguf.Q2_K: gguf.Q8_K, gguf.Q3_K: gguf.Q8_K, gguf.Q4_K: gguf.Q8_K, gguf.Q5_K: gguf.Q8_K, gguf.Q6_K: gguf.Q8_K,
	}
	for w, a := range want {
		if got := ActType(w); got != a {
			t.Errorf("ActType(%s) = %s, want %s", w, got, a)
		}
	}
}

// TestQuantizeAct checks the activation blocks against their definition:
// the scale is amax/127 (f16 for Q8_0/Q8_1, -1/(-127/max) in f32 for
// Q8_K), every value is the nearest multiple of the scale, Q8_1's s and
// Q8_K's bsums are the sums of the stored quants.
func TestQuantizeAct(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for _, w := range []gguf.TensorType{gguf.Q4_0, gguf.Q4_1, gguf.Q4_K, gguf.F16} {
		n := 3 * ActType(w).BlockSize()
		if n < 32 {
			n = 40
		}
		x := randActivation(r, n)
		dst := make([]byte, ActType(w).RowBytes(n))
		QuantizeAct(w, x, dst)
		vals := refDequantAct(w, dst, n)
		switch ActType(w) {
		case gguf.F32:
			// F16 weights take activations rounded to half.
			for i := range x {
				if float32(vals[i]) != F16ToF32(F32ToF16(x[i])) {
					t.Fatalf("F32 act %d: %g != %g", i, vals[i], x[i])
				}
			}
			continue
		}
		bs := ActType(w).BlockSize()
		for b := 0; b < n/bs; b++ {
			xs := x[b*bs : (b+1)*bs]
			var amax, mx float64
			for _, v := range xs {
				if a := math.Abs(float64(v)); a > amax {
					amax, mx = a, float64(v)
				}
			}
			blk := dst[b*ActType(w).TypeSize():]
			var d float64
			var qs []byte
			switch ActType(w) {
			case gguf.Q8_0:
				d, qs = refHalf(blk), blk[2:34]
			case gguf.Q8_1:
				d, qs = refHalf(blk), blk[4:36]
			case gguf.Q8_K:
				d, qs = float64(math.Float32frombits(binary.LittleEndian.Uint32(blk))), blk[4:260]
			}
			if math.Abs(math.Abs(d)-amax/127) > amax/127*1e-3 {
				t.Errorf("%s block %d: scale %g, want about %g", ActType(w), b, d, amax/127)
			}
			sum := 0
			for j, v := range xs {
				q := int(int8(qs[j]))
				sum += q
				// Nearest integer to v/step, with step = amax/127 as the
				// quantizer computed it (before the f16 rounding of d).
				ideal := float64(v) * 127 / amax
				if ActType(w) == gguf.Q8_K {
					ideal = float64(v) * -127 / mx
				}
				if math.Abs(float64(q)-ideal) > 0.5+1e-5 {
					t.Errorf("%s block %d value %d: q=%d for %g (ideal %g)", ActType(w), b, j, q, v, ideal)
				}
				if float64(v) == mx && math.Abs(float64(q)) != 127 {
					t.Errorf("%s block %d: largest value quantized to %d, want +-127", ActType(w), b, q)
				}
			}
			switch ActType(w) {
			case gguf.Q8_1:
				if s := refHalf(blk[2:]); math.Abs(s-d*float64(sum)) > math.Abs(d*float64(sum))*1e-3+1e-9 {
					t.Errorf("Q8_1 block %d: s = %g, want d*sum = %g", b, s, d*float64(sum))
				}
			case gguf.Q8_K:
				for j := 0; j < 16; j++ {
					s := 0
					for _, q := range qs[16*j : 16*j+16] {
						s += int(int8(q))
					}
					if got := int(int16(binary.LittleEndian.Uint16(blk[260+2*j:]))); got != s {
						t.Errorf("Q8_K block %d bsum %d = %d, want %d", b, j, got, s)
					}
				}
			}
		}
	}
}
