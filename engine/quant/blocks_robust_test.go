package quant

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// Bad input is an error naming the problem, never a panic.

func TestLengthErrors(t *testing.T) {
	for _, typ := range decodeTypes {
		bs, ts := typ.BlockSize(), typ.TypeSize()
		good := func(nb int) ([]byte, []float32) { return make([]byte, nb*ts), make([]float32, nb*bs) }
		q, y := good(3)
		if err := Dequantize(typ, q, y); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if err := Quantize(typ, y, q); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		if err := Dequantize(typ, nil, nil); err != nil {
			t.Fatalf("%s: empty input: %v", typ, err)
		}
		bad := []struct {
			nbytes, nelem int
		}{
			{3*ts + 1, 3 * bs}, {3*ts - 1, 3 * bs}, {2 * ts, 3 * bs}, {0, bs}, {ts, 0}, {100 * ts, bs},
		}
		if bs > 1 {
			bad = append(bad, struct{ nbytes, nelem int }{3 * ts, 3*bs - 1}, struct{ nbytes, nelem int }{ts, 1})
		}
		for _, c := range bad {
			err := Dequantize(typ, make([]byte, c.nbytes), make([]float32, c.nelem))
			if err == nil || !strings.Contains(err.Error(), typ.String()) {
				t.Errorf("%s: Dequantize of %d bytes into %d values: error %v", typ, c.nbytes, c.nelem, err)
			}
			err = Quantize(typ, make([]float32, c.nelem), make([]byte, c.nbytes))
			if err == nil || !strings.Contains(err.Error(), typ.String()) {
				t.Errorf("%s: Quantize of %d values into %d bytes: error %v", typ, c.nelem, c.nbytes, err)
			}
		}
	}
}

func TestUnsupportedTypes(t *testing.T) {
	for _, typ := range []gguf.TensorType{gguf.IQ2_XXS, gguf.IQ4_NL, gguf.I8, gguf.I32, gguf.F64, gguf.TQ1_0, gguf.MXFP4, 4, 99, 1 << 31} {
		if CanDequantize(typ) || CanQuantize(typ) {
			t.Errorf("%s claims support", typ)
		}
		if err := Dequantize(typ, make([]byte, 256), make([]float32, 256)); err == nil {
			t.Errorf("%s: Dequantize succeeded", typ)
		}
		if err := Quantize(typ, make([]float32, 256), make([]byte, 256)); err == nil {
			t.Errorf("%s: Quantize succeeded", typ)
		}
	}
	for _, typ := range decodeTypes {
		if !CanDequantize(typ) {
			t.Errorf("CanDequantize(%s) = false", typ)
		}
	}
	for _, typ := range encodeTypes {
		if !CanQuantize(typ) {
			t.Errorf("CanQuantize(%s) = false", typ)
		}
	}
}

// TestHostileValues feeds NaN, infinities, huge and subnormal values to
// every encoder and random bytes to every decoder: no panic, and finite
// well-scaled input still decodes to finite values.
func TestHostileValues(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
		math.MaxFloat32, -math.MaxFloat32, 1e30, -1e-45, 0, float32(math.Copysign(0, -1))}
	for _, typ := range encodeTypes {
		x := normalFloats(uint64(typ), 1024)
		for i := range x {
			if i%7 == 0 {
				x[i] = specials[r.IntN(len(specials))]
			}
		}
		q := make([]byte, typ.RowBytes(len(x)))
		if err := Quantize(typ, x, q); err != nil {
			t.Fatal(err)
		}
		if err := Dequantize(typ, q, make([]float32, len(x))); err != nil {
			t.Fatal(err)
		}
	}
	for _, typ := range decodeTypes {
		q := make([]byte, typ.RowBytes(4096))
		for i := range q {
			q[i] = byte(r.Uint32())
		}
		if err := Dequantize(typ, q, make([]float32, 4096)); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzDequantize: any bytes, any type id, any claimed element count.
func FuzzDequantize(f *testing.F) {
	f.Add(uint32(gguf.Q4_K), uint16(256), make([]byte, 144))
	f.Add(uint32(gguf.Q6_K), uint16(255), make([]byte, 210))
	f.Add(uint32(gguf.Q5_0), uint16(64), []byte{1, 2, 3})
	f.Add(uint32(99), uint16(32), make([]byte, 32))
	f.Fuzz(func(t *testing.T, typ uint32, n uint16, data []byte) {
		tt := gguf.TensorType(typ)
		err := Dequantize(tt, data, make([]float32, n))
		ok := CanDequantize(tt) && int(n)%tt.BlockSize() == 0 && tt.RowBytes(int(n)) == len(data)
		if (err == nil) != ok {
			t.Fatalf("Dequantize(%s, %d bytes, %d values): err = %v", tt, len(data), n, err)
		}
	})
}

// FuzzQuantize: arbitrary float bits through every encoder and back.
func FuzzQuantize(f *testing.F) {
	f.Add(uint32(gguf.Q4_K), make([]byte, 1024))
	f.Add(uint32(gguf.Q3_K), []byte("\x00\x00\xc0\x7f"))
	f.Fuzz(func(t *testing.T, typ uint32, data []byte) {
		tt := gguf.TensorType(typ % 32)
		if !CanQuantize(tt) {
			return
		}
		bs := tt.BlockSize()
		n := len(data) / 4 / bs * bs
		x := make([]float32, n)
		for i := range x {
			x[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		q := make([]byte, tt.RowBytes(n))
		if err := Quantize(tt, x, q); err != nil {
			t.Fatal(err)
		}
		if err := Dequantize(tt, q, x); err != nil {
			t.Fatal(err)
		}
	})
}

// TestParallelEncodeSameBytes: a large input, which Quantize splits across
// goroutines, encodes to the same bytes as the same data fed block by block.
func TestParallelEncodeSameBytes(t *testing.T) {
	x := awkwardFloats(21, 256*300)
	for typ := range slowEncoders {
		whole := make([]byte, typ.RowBytes(len(x)))
		if err := Quantize(typ, x, whole); err != nil {
			t.Fatal(err)
		}
		ts := typ.TypeSize()
		for b := 0; b < len(x)/256; b++ {
			one := make([]byte, ts)
			if err := Quantize(typ, x[256*b:256*b+256], one); err != nil {
				t.Fatal(err)
			}
			if string(one) != string(whole[ts*b:ts*b+ts]) {
				t.Fatalf("%s: block %d differs between whole-input and single-block encoding", typ, b)
			}
		}
	}
}

// TestOverflowingScaleSameEverywhere: a block of subnormal values has a
// scale whose reciprocal overflows to infinity, so the level computation
// converts infinities and NaNs to integers. ggml's casts do that the x86 way
// (every such value becomes level 0 after the int8 narrowing); Quantize must
// give those bytes on every platform (the ggml oracle test checks the x86
// answer, this pins it where that test cannot run).
func TestOverflowingScaleSameEverywhere(t *testing.T) {
	x := make([]float32, 32)
	for i := range x {
		x[i] = float32(i%5-2) * 1e-40
	}
	for _, typ := range []gguf.TensorType{gguf.Q4_0, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1, gguf.Q8_0, gguf.Q8_1} {
		q := make([]byte, typ.TypeSize())
		if err := Quantize(typ, x, q); err != nil {
			t.Fatal(err)
		}
		hdr := map[gguf.TensorType]int{gguf.Q4_0: 2, gguf.Q4_1: 4, gguf.Q5_0: 2, gguf.Q5_1: 4, gguf.Q8_0: 2, gguf.Q8_1: 4}[typ]
		for i, b := range q[hdr:] { // qh (if any) and qs
			if b != 0 {
				t.Fatalf("%s: byte %d of the levels is %#02x, want 0 (x86 conversion semantics): % x", typ, hdr+i, b, q)
			}
		}
	}
}
