package quant

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

var dotTypes = []gguf.TensorType{
	gguf.F32, gguf.F16, gguf.BF16,
	gguf.Q4_0, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1, gguf.Q8_0,
	gguf.Q2_K, gguf.Q3_K, gguf.Q4_K, gguf.Q5_K, gguf.Q6_K,
}

// dotSizes are row lengths for type t: one block, a few, odd counts, and
// for float types lengths that leave a tail after the 32-wide main loop.
func dotSizes(t gguf.TensorType) []int {
	switch t.BlockSize() {
	case 1:
		return []int{1, 7, 31, 32, 33, 64, 95, 257, 1000}
	case 32:
		return []int{32, 64, 96, 7 * 32, 33 * 32, 69 * 32}
	}
	return []int{256, 512, 3 * 256, 5 * 256, 11 * 256}
}

// actTol is the largest error quantizing one activation value can make,
// as a multiple of its block's absolute maximum: half a step of amax/127,
// plus (for the f16 scale of Q8_0/Q8_1) 127 times the scale's rounding.
func actTol(w gguf.TensorType) float64 {
	switch w {
	case gguf.F16:
		return 0x1p-11 // activations rounded to half, as llama.cpp does
	case gguf.BF16:
		return 0x1p-8
	}
	switch ActType(w) {
	case gguf.Q8_0, gguf.Q8_1:
		return (0.5 + 127.0/2048) / 127
	case gguf.Q8_K:
		return 0.5 / 127 * (1 + 1e-6)
	}
	return 0
}

type dotCase struct {
	t     gguf.TensorType
	n     int
	nrows int
	w     []byte
	x     []float32
	act   []byte
}

func makeDotCases(seed uint64) []dotCase {
	r := rand.New(rand.NewPCG(seed, 7))
	var cs []dotCase
	for _, t := range dotTypes {
		for k, n := range dotSizes(t) {
			nrows := 3
			c := dotCase{t: t, n: n, nrows: nrows, w: randWeights(r, t, nrows, n), x: randActivation(r, n)}
			if k%2 == 1 {
				// Weights as a real model has them: quantized floats.
				c.w = quantizedWeights(r, t, nrows, n)
			}
			if k == 2 && n >= 64 && t.BlockSize() > 1 {
				// A zero activation block quantizes to d = 0: must add nothing.
				clear(c.x[:ActType(t).BlockSize()])
			}
			c.act = make([]byte, ActType(t).RowBytes(n))
			QuantizeAct(t, c.x, c.act)
			cs = append(cs, c)
		}
	}
	return cs
}

// quantizedWeights quantizes random floats with the block encoders of this
// package (Quantize), so the dot sees the value distributions real models
// have, next to randWeights' arbitrary bit patterns.
func quantizedWeights(r *rand.Rand, t gguf.TensorType, nrows, n int) []byte {
	f := make([]float32, nrows*n)
	for i := range f {
		f[i] = float32(r.NormFloat64() * 0.05)
	}
	w := make([]byte, nrows*t.RowBytes(n))
	if err := Quantize(t, f, w); err != nil {
		panic(err)
	}
	return w
}

// TestRefDequantMatchesDequantize ties the test's float64 decoder to the
// package's Dequantize: both must give the same float32 values.
func TestRefDequantMatchesDequantize(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, ty := range dotTypes {
		n := 2 * max(ty.BlockSize(), 32)
		w := randWeights(r, ty, 1, n)
		got := make([]float32, n)
		if err := Dequantize(ty, w, got); err != nil {
			t.Fatalf("%s: %v", ty, err)
		}
		for i, v := range refDequant(ty, w, n) {
			if float32(v) != got[i] {
				t.Fatalf("%s value %d: reference %g, Dequantize %g", ty, i, v, got[i])
			}
		}
	}
}

func withAsm(on bool, f func()) {
	old := useAsm
	useAsm = on
	defer func() { useAsm = old }()
	f()
}

// TestVecDotReference checks every kernel, assembly and pure Go, against a
// float64 reference: (1) on the dequantized activation the result may only
// differ by float32 rounding; (2) on the original floats by at most the
// activation's quantization error, sum |w_i| * err_i.
func TestVecDotReference(t *testing.T) {
	cases := makeDotCases(1)
	for _, path := range []string{"asm", "go"} {
		t.Run(path, func(t *testing.T) {
			withAsm(path == "asm", func() {
				worst := map[gguf.TensorType][2]float64{}
				for _, c := range cases {
					rb := c.t.RowBytes(c.n)
					out := make([]float32, c.nrows)
					VecDotRows(c.t, c.w, c.nrows, c.act, c.n, out)
					a := refDequantAct(c.t, c.act, c.n)
					bs := ActType(c.t).BlockSize()
					for i := 0; i < c.nrows; i++ {
						row := c.w[i*rb : (i+1)*rb]
						if got := VecDot(c.t, row, c.act, c.n); math.Float32bits(got) != math.Float32bits(out[i]) {
							t.Fatalf("%s n=%d row %d: VecDot %g != VecDotRows %g", c.t, c.n, i, got, out[i])
						}
						wd := refDequant(c.t, row, c.n)
						var exactQ, absQ, exactX, absX, errBound float64
						for j := range wd {
							exactQ += wd[j] * a[j]
							absQ += math.Abs(wd[j] * a[j])
							exactX += wd[j] * float64(c.x[j])
							absX += math.Abs(wd[j] * float64(c.x[j]))
						}
						for b := 0; b < c.n/bs; b++ {
							var amax float64
							for _, v := range c.x[b*bs : (b+1)*bs] {
								amax = max(amax, math.Abs(float64(v)))
							}
							for _, v := range wd[b*bs : (b+1)*bs] {
								errBound += math.Abs(v) * amax * actTol(c.t)
							}
						}
						blocks := float64(max(c.n/bs, c.n/32))
						roundTol := (blocks+40)*0x1p-24*absQ + q81SumError(c.t, row, c.act, c.n)
						got := float64(out[i])
						if d := math.Abs(got - exactQ); d > roundTol {
							t.Errorf("%s n=%d row %d: %g vs dequantized reference %g: off by %g > %g", c.t, c.n, i, got, exactQ, d, roundTol)
						}
						if d := math.Abs(got - exactX); d > errBound+roundTol+1e-6*absX {
							t.Errorf("%s n=%d row %d: %g vs float reference %g: off by %g > bound %g", c.t, c.n, i, got, exactX, d, errBound+roundTol)
						}
						wst := worst[c.t]
						wst[0] = max(wst[0], math.Abs(got-exactQ)/absQ)
						wst[1] = max(wst[1], math.Abs(got-exactX)/absX)
						worst[c.t] = wst
					}
				}
				for _, ty := range dotTypes {
					t.Logf("%-5s asm=%-5v max |err|/sum|w*x|: vs dequantized act %.2e, vs float act %.2e",
						ty, DotAsm(ty), worst[ty][0], worst[ty][1])
				}
			})
		})
	}
}

// TestVecDotAsmMatchesGo requires the assembly kernels to return exactly
// the pure-Go result: both sum in the same order, so any difference is a bug.
func TestVecDotAsmMatchesGo(t *testing.T) {
	n := 0
	for seed := uint64(10); seed < 13; seed++ {
		for _, c := range makeDotCases(seed) {
			if asmDot[c.t] == nil {
				continue
			}
			rb := c.t.RowBytes(c.n)
			for i := 0; i < c.nrows; i++ {
				row := c.w[i*rb : (i+1)*rb]
				g, a := goDot[c.t](row, c.act, c.n), asmDot[c.t](row, c.act, c.n)
				if math.Float32bits(g) != math.Float32bits(a) {
					t.Errorf("%s n=%d row %d: asm %g (%08x) != go %g (%08x)", c.t, c.n, i, a, math.Float32bits(a), g, math.Float32bits(g))
				}
				n++
			}
		}
	}
	var have []string
	for _, ty := range dotTypes {
		if asmDot[ty] != nil {
			have = append(have, ty.String())
		}
	}
	if len(have) == 0 {
		t.Skip("no assembly kernels on this machine")
	}
	t.Logf("%d rows bitwise equal; assembly for %v", n, have)
}

// TestVecDotExtremes uses the largest legal magnitudes (quants at both ends,
// activations at +-127, Q8_0 weights at -128) where an int16 intermediate
// of the assembly could overflow.
func TestVecDotExtremes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, ty := range dotTypes {
		if ty.BlockSize() == 1 {
			continue
		}
		n := 2 * ty.BlockSize()
		for trial := 0; trial < 8; trial++ {
			w := randWeights(r, ty, 1, n)
			// Push every quant byte to an extreme, leaving scales alone.
			ext := randWeights(r, ty, 1, n)
			for i := range ext {
				ext[i] = []byte{0x00, 0xff, 0x80, 0x7f}[r.IntN(4)]
			}
			w = overlayQuants(ty, w, ext)
			x := make([]float32, n)
			for i := range x {
				x[i] = float32(1 - 2*float64(r.IntN(2)))
			}
			act := make([]byte, ActType(ty).RowBytes(n))
			QuantizeAct(ty, x, act)
			g := goDot[ty](w, act, n)
			var ref float64
			wd, a := refDequant(ty, w, n), refDequantAct(ty, act, n)
			var abs float64
			for i := range wd {
				ref += wd[i] * a[i]
				abs += math.Abs(wd[i] * a[i])
			}
			if math.Abs(float64(g)-ref) > 64*0x1p-24*abs+q81SumError(ty, w, act, n) {
				t.Errorf("%s go: %g vs reference %g", ty, g, ref)
			}
			if k := asmDot[ty]; k != nil {
				if got := k(w, act, n); math.Float32bits(got) != math.Float32bits(g) {
					t.Errorf("%s trial %d: asm %g != go %g", ty, trial, got, g)
				}
			}
		}
	}
}

// q81SumError is how far Q4_1/Q5_1 dots may stray from the dequantized
// reference by design: they take sum(a) from Q8_1's f16 field s instead of
// d*sum(qs), so each block's min contributes |m| * |s - d*sum(qs)|.
func q81SumError(t gguf.TensorType, w, act []byte, n int) float64 {
	if ActType(t) != gguf.Q8_1 {
		return 0
	}
	var e float64
	for b := 0; b < n/32; b++ {
		y := act[36*b:]
		sum := 0
		for _, q := range y[4:36] {
			sum += int(int8(q))
		}
		m := refHalf(w[t.TypeSize()*b+2:])
		e += math.Abs(m) * math.Abs(refHalf(y[2:])-refHalf(y)*float64(sum))
	}
	return e * (1 + 1e-6)
}

// overlayQuants copies the quant bytes of ext into w, keeping w's scale
// fields (so the block stays valid, with finite scales).
func overlayQuants(t gguf.TensorType, w, ext []byte) []byte {
	var lo, hi int // quant byte range inside a block
	switch t {
	case gguf.Q4_0, gguf.Q8_0:
		lo, hi = 2, t.TypeSize()
	case gguf.Q5_0:
		lo, hi = 2, 22
	case gguf.Q4_1, gguf.Q5_1:
		lo, hi = 4, t.TypeSize()
	case gguf.Q2_K:
		lo, hi = 0, 80
	case gguf.Q3_K:
		lo, hi = 0, 108
	case gguf.Q4_K, gguf.Q5_K:
		lo, hi = 4, t.TypeSize()
	case gguf.Q6_K:
		lo, hi = 0, 208
	}
	ts := t.TypeSize()
	for off := 0; off < len(w); off += ts {
		copy(w[off+lo:off+hi], ext[off+lo:off+hi])
	}
	return w
}

func TestDotBadInputPanics(t *testing.T) {
	act := make([]byte, 34)
	QuantizeAct(gguf.Q4_0, randActivation(rand.New(rand.NewPCG(1, 1)), 32), act)
	for name, f := range map[string]func(){
		"short weights": func() { VecDot(gguf.Q4_0, make([]byte, 17), act, 32) },
		"short act":     func() { VecDot(gguf.Q4_0, make([]byte, 18), act[:33], 32) },
		"odd n":         func() { VecDot(gguf.Q4_0, make([]byte, 36), act, 48) },
		"no kernel":     func() { VecDot(gguf.IQ2_XXS, make([]byte, 66), act, 256) },
		"short out":     func() { VecDotRows(gguf.Q4_0, make([]byte, 36), 2, act, 32, make([]float32, 1)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

func ExampleVecDot() {
	x := []float32{1, 2, 3, 4}
	w := make([]byte, 16) // four F32 weights
	QuantizeAct(gguf.F32, []float32{0.5, 0.5, 0.5, 0.5}, w)
	act := make([]byte, ActType(gguf.F32).RowBytes(4))
	QuantizeAct(gguf.F32, x, act)
	fmt.Println(VecDot(gguf.F32, w, act, 4))
	// Output: 5
}
