package quant

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// Known-answer tests: blocks assembled byte by byte from the layouts in
// ggml-common.h, with every expected value worked out per element from
// that description (scales are powers of two, so all of it is exact).

func decodeAll(t *testing.T, typ gguf.TensorType, q []byte) []float32 {
	t.Helper()
	y := make([]float32, len(q)/typ.TypeSize()*typ.BlockSize())
	if err := Dequantize(typ, q, y); err != nil {
		t.Fatal(err)
	}
	return y
}

func expectValues(t *testing.T, typ gguf.TensorType, got []float32, want func(i int) float64) {
	t.Helper()
	for i, g := range got {
		if w := want(i); float64(g) != w {
			t.Fatalf("%s value %d = %g, want %g", typ, i, g, w)
		}
	}
}

const (
	h0125 = 0x3000 // 0.125 as f16
	h025  = 0x3400
	h05   = 0x3800
	h2    = 0x4000
	h3    = 0x4200
	hm1   = 0xbc00 // -1
)

func le16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }

func TestKnownLegacyBlocks(t *testing.T) {
	// Q4_0: d = 0.5; byte j = nibble j | nibble (15-j) << 4.
	q := le16(h05)
	for j := range 16 {
		q = append(q, byte(j|(15-j)<<4))
	}
	expectValues(t, gguf.Q4_0, decodeAll(t, gguf.Q4_0, q), func(i int) float64 {
		if i < 16 {
			return float64(i-8) * 0.5
		}
		return float64(15-(i-16)-8) * 0.5
	})

	// Q4_1: d = 0.25, m = -1.
	q = append(le16(h025), le16(hm1)...)
	for j := range 16 {
		q = append(q, byte((3*j)%16|j<<4))
	}
	expectValues(t, gguf.Q4_1, decodeAll(t, gguf.Q4_1, q), func(i int) float64 {
		if i < 16 {
			return float64((3*i)%16)*0.25 - 1
		}
		return float64(i-16)*0.25 - 1
	})

	// Q5_0: d = 2, qh = 0xf0f05a5a (bit i: fifth bit of value i).
	const qh uint32 = 0xf0f05a5a
	q = append(le16(h2), binary.LittleEndian.AppendUint32(nil, qh)...)
	for j := range 16 {
		q = append(q, byte(j|(j^5)<<4))
	}
	nib := func(i int) int {
		if i < 16 {
			return i
		}
		return (i - 16) ^ 5
	}
	expectValues(t, gguf.Q5_0, decodeAll(t, gguf.Q5_0, q), func(i int) float64 {
		return float64(nib(i)+16*int(qh>>i&1)-16) * 2
	})

	// Q5_1: d = 0.5, m = 3, same qh and nibbles.
	q = append(append(le16(h05), le16(h3)...), binary.LittleEndian.AppendUint32(nil, qh)...)
	for j := range 16 {
		q = append(q, byte(j|(j^5)<<4))
	}
	expectValues(t, gguf.Q5_1, decodeAll(t, gguf.Q5_1, q), func(i int) float64 {
		return float64(nib(i)+16*int(qh>>i&1))*0.5 + 3
	})

	// Q8_0: d = 0.125, q_i = 8i - 128; Q8_1: d = 0.25, s ignored.
	q = le16(h0125)
	q81 := append(le16(h025), le16(0x7777)...)
	for j := range 32 {
		q = append(q, byte(int8(8*j-128)))
		q81 = append(q81, byte(int8(8*j-128)))
	}
	expectValues(t, gguf.Q8_0, decodeAll(t, gguf.Q8_0, q), func(i int) float64 { return float64(8*i-128) * 0.125 })
	expectValues(t, gguf.Q8_1, decodeAll(t, gguf.Q8_1, q81), func(i int) float64 { return float64(8*i-128) * 0.25 })

	// Plain types.
	f32 := binary.LittleEndian.AppendUint32(nil, math.Float32bits(-1.5))
	f32 = binary.LittleEndian.AppendUint32(f32, math.Float32bits(3e-41))
	expectValues(t, gguf.F32, decodeAll(t, gguf.F32, f32), func(i int) float64 { return float64([]float32{-1.5, 3e-41}[i]) })
	halves := []uint16{0x3c00, 0xc000, 0x0001, 0x7bff, 0x8000, 0x3555}
	wantH := []float64{1, -2, math.Ldexp(1, -24), 65504, 0, 0.333251953125}
	bf := []uint16{0x3f80, 0xc000, 0x4049, 0x0001}
	wantB := []float64{1, -2, 3.140625, float64(math.Float32frombits(0x10000))}
	var hb, bb []byte
	for i := range halves {
		hb = append(hb, le16(halves[i])...)
		bb = append(bb, le16(bf[i%len(bf)])...)
	}
	expectValues(t, gguf.F16, decodeAll(t, gguf.F16, hb), func(i int) float64 { return wantH[i] })
	expectValues(t, gguf.BF16, decodeAll(t, gguf.BF16, bb), func(i int) float64 { return wantB[i%len(wantB)] })
}

// pattern is a fixed byte sequence for the level bits of k-quant blocks.
func pattern(n int, mul, add byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)*mul + add
	}
	return b
}

func TestKnownKQuantBlocks(t *testing.T) {
	// Q2_K: scales[16] | qs[64] | d | dmin. Group g: sc = g, m = (7g)%16.
	// Value i: byte 32*(i/128) + i%32 of qs, bits 2*((i%128)/32).
	qs := pattern(64, 37, 11)
	q := make([]byte, 0, 84)
	for g := range 16 {
		q = append(q, byte(g|((7*g)%16)<<4))
	}
	q = append(append(append(q, qs...), le16(h05)...), le16(h025)...)
	expectValues(t, gguf.Q2_K, decodeAll(t, gguf.Q2_K, q), func(i int) float64 {
		g := i / 16
		lvl := int(qs[32*(i/128)+i%32]>>(2*((i%128)/32))) & 3
		return 0.5*float64(g)*float64(lvl) - 0.25*float64((7*g)%16)
	})

	// Q3_K: hmask[32] | qs[64] | scales[12] | d. Group j has the 6-bit
	// scale s6 = (5j+3)%64 (biased by 32): its low nibble in byte j (j<8)
	// or the high nibble of byte j-8, its top two bits in byte 8+j%4 at bit
	// 2*(j/4). Value i: low bits as Q2_K, high bit = bit i/32 of hmask[i%32]
	// (set means no -4).
	hm := pattern(32, 101, 7)
	qs = pattern(64, 29, 3)
	sc := make([]byte, 12)
	s6 := func(j int) int { return (5*j + 3) % 64 }
	for j := range 16 {
		if j < 8 {
			sc[j] |= byte(s6(j) & 15)
		} else {
			sc[j-8] |= byte(s6(j)&15) << 4
		}
		sc[8+j%4] |= byte(s6(j)>>4) << (2 * (j / 4))
	}
	q = append(append(append(append([]byte{}, hm...), qs...), sc...), le16(h025)...)
	expectValues(t, gguf.Q3_K, decodeAll(t, gguf.Q3_K, q), func(i int) float64 {
		lvl := int(qs[32*(i/128)+i%32]>>(2*((i%128)/32))) & 3
		if hm[i%32]>>(i/32)&1 == 0 {
			lvl -= 4
		}
		return 0.25 * float64(s6(i/16)-32) * float64(lvl)
	})

	// Q4_K / Q5_K scales: group j has sc6 = (9j+5)%64, m6 = (13j+2)%64.
	// Groups 0..3: low 6 bits of bytes j and j+4; groups 4..7: low nibbles
	// in byte j+4, top 2 bits in bits 6..7 of bytes j-4 (sc) and j (m).
	sc6 := func(j int) int { return (9*j + 5) % 64 }
	m6 := func(j int) int { return (13*j + 2) % 64 }
	ks := make([]byte, 12)
	for j := range 8 {
		if j < 4 {
			ks[j] |= byte(sc6(j))
			ks[j+4] |= byte(m6(j))
		} else {
			ks[j+4] = byte(sc6(j)&15 | (m6(j)&15)<<4)
			ks[j-4] |= byte(sc6(j)>>4) << 6
			ks[j] |= byte(m6(j)>>4) << 6
		}
	}
	// Q4_K: d | dmin | scales | qs[128]; value i in byte 32*(i/64)+i%32,
	// low nibble when i%64 < 32.
	qs = pattern(128, 53, 9)
	nibble := func(i int) int {
		b := qs[32*(i/64)+i%32]
		if i%64 < 32 {
			return int(b & 15)
		}
		return int(b >> 4)
	}
	q = append(append(append(le16(h05), le16(h0125)...), ks...), qs...)
	expectValues(t, gguf.Q4_K, decodeAll(t, gguf.Q4_K, q), func(i int) float64 {
		return 0.5*float64(sc6(i/32))*float64(nibble(i)) - 0.125*float64(m6(i/32))
	})

	// Q5_K: d | dmin | scales | qh[32] | qs[128]; the fifth bit of value i
	// is bit 2*(i/64) + (i%64)/32 of qh[i%32].
	qh := pattern(32, 77, 1)
	q = append(append(append(append(le16(h05), le16(h0125)...), ks...), qh...), qs...)
	expectValues(t, gguf.Q5_K, decodeAll(t, gguf.Q5_K, q), func(i int) float64 {
		hb := int(qh[i%32]>>(2*(i/64)+(i%64)/32)) & 1
		return 0.5*float64(sc6(i/32))*float64(nibble(i)+16*hb) - 0.125*float64(m6(i/32))
	})

	// Q6_K: ql[128] | qh[64] | scales[16] int8 | d. Value i: half h = i/128,
	// r = i%128, l = r%32, k = r/32; low nibble from ql[64h + 32*(k%2) + l]
	// (low half for k < 2), top 2 bits from qh[32h + l] at bit 2k.
	ql := pattern(128, 31, 5)
	qh6 := pattern(64, 59, 13)
	s8 := make([]byte, 16)
	for g := range s8 {
		s8[g] = byte(int8(11*g - 90))
	}
	q = append(append(append(append([]byte{}, ql...), qh6...), s8...), le16(h0125)...)
	expectValues(t, gguf.Q6_K, decodeAll(t, gguf.Q6_K, q), func(i int) float64 {
		h, r := i/128, i%128
		l, k := r%32, r/32
		b := ql[64*h+32*(k%2)+l]
		lo := int(b & 15)
		if k >= 2 {
			lo = int(b >> 4)
		}
		hi := int(qh6[32*h+l]>>(2*k)) & 3
		return 0.125 * float64(11*(i/16)-90) * float64(lo|hi<<4-32)
	})

	// Q8_K: d float32 | qs[256] int8 | bsums (ignored by the decoder).
	q = binary.LittleEndian.AppendUint32(nil, math.Float32bits(0.0625))
	for j := range 256 {
		q = append(q, byte(int8(j-128)))
	}
	q = append(q, make([]byte, 32)...)
	expectValues(t, gguf.Q8_K, decodeAll(t, gguf.Q8_K, q), func(i int) float64 { return 0.0625 * float64(i-128) })
}

func TestKnownEncodings(t *testing.T) {
	// Q4_0 of (j%16 - 8)/2: the extreme -4 sets d = -4/-8 = 0.5, so every
	// value sits on the grid with level j%16.
	x := make([]float32, 32)
	for j := range x {
		x[j] = float32(j%16-8) / 2
	}
	want := le16(h05)
	for j := range 16 {
		want = append(want, byte(j|j<<4))
	}
	got := make([]byte, 18)
	if err := Quantize(gguf.Q4_0, x, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Q4_0 = % x, want % x", got, want)
	}

	// Q8_0 of (j-16)*127/16 with x[31] = 2.5: amax 127 gives d = 1, and the
	// levels are round-half-away-from-zero of each value (2.5 -> 3).
	for j := range x {
		x[j] = float32(j-16) * 127 / 16
	}
	x[31] = 2.5
	want = le16(0x3c00)
	for j := range 32 {
		n := (j - 16) * 127 // value = n/16
		q := (abs(n) + 8) / 16
		if n < 0 {
			q = -q
		}
		if j == 31 {
			q = 3
		}
		want = append(want, byte(int8(q)))
	}
	got = make([]byte, 34)
	if err := Quantize(gguf.Q8_0, x, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("Q8_0 = % x, want % x", got, want)
	}

	// Q8_K: x[0] = -127 gives iscale = 1 and d = 1; the rest are (j-128)/2,
	// half of them ties, which round to even.
	xk := make([]float32, 256)
	wantQ := make([]int, 256)
	xk[0], wantQ[0] = -127, -127
	for j := 1; j < 256; j++ {
		n := j - 128
		xk[j] = float32(n) / 2
		lo := floorDiv2(n) // n/2 rounded down; n/2 itself when n is even
		if n%2 == 0 || lo%2 == 0 {
			wantQ[j] = lo
		} else {
			wantQ[j] = lo + 1
		}
	}
	wantK := binary.LittleEndian.AppendUint32(nil, math.Float32bits(1))
	for _, v := range wantQ {
		wantK = append(wantK, byte(int8(v)))
	}
	for g := range 16 {
		s := 0
		for _, v := range wantQ[16*g : 16*g+16] {
			s += v
		}
		wantK = binary.LittleEndian.AppendUint16(wantK, uint16(int16(s)))
	}
	got = make([]byte, 292)
	if err := Quantize(gguf.Q8_K, xk, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != string(wantK) {
		t.Errorf("Q8_K = % x\nwant % x", got, wantK)
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func floorDiv2(n int) int {
	if n < 0 {
		return -((-n + 1) / 2)
	}
	return n / 2
}
