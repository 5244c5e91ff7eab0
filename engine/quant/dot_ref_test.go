package quant

import (
	"encoding/binary"
	"math"
	"math/rand/v2"

	"github.com/emberllm/ember/engine/gguf"
)

// A float64 reference for the dot tests, written from llama.cpp's
// dequantize_row_* layouts (block by block, value by value), independent of
// the kernels' loop structure.

func refHalf(b []byte) float64 {
	h := binary.LittleEndian.Uint16(b)
	e := int(h>>10) & 31
	m := float64(h & 1023)
	var v float64
	switch e {
	case 0:
		v = math.Ldexp(m, -24)
	case 31:
		v = math.Inf(1)
	default:
		v = math.Ldexp(1024+m, e-25)
	}
	if h&0x8000 != 0 {
		v = -v
	}
	return v
}

// refDequant returns the n weights of one row of type t as float64.
func refDequant(t gguf.TensorType, row []byte, n int) []float64 {
	out := make([]float64, n)
	bs, ts := t.BlockSize(), t.TypeSize()
	for b := 0; b < n/bs; b++ {
		x := row[b*ts : (b+1)*ts]
		o := out[b*bs : (b+1)*bs]
		switch t {
		case gguf.F32:
			o[0] = float64(math.Float32frombits(binary.LittleEndian.Uint32(x)))
		case gguf.F16:
			o[0] = refHalf(x)
		case gguf.BF16:
			o[0] = float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(x)) << 16))
		case gguf.Q4_0, gguf.Q4_1, gguf.Q5_0, gguf.Q5_1:
			refSmallBlock(t, x, o)
		case gguf.Q8_0:
			for j := 0; j < 32; j++ {
				o[j] = refHalf(x) * float64(int8(x[2+j]))
			}
		case gguf.Q2_K:
			d, dmin := refHalf(x[80:]), refHalf(x[82:])
			for i := range 256 {
				sc := x[i/16]
				q := (x[16+32*(i/128)+i%32] >> (2 * (i % 128 / 32))) & 3
				o[i] = d*float64(sc&15)*float64(q) - dmin*float64(sc>>4)
			}
		case gguf.Q3_K:
			d := refHalf(x[108:])
			for i := range 256 {
				// Scale i/16 is 6 bits: low 4 from byte (i/16)%8 (nibble
				// (i/16)/8), high 2 from byte 8+(i/16)%4 (pair (i/16)/4).
				j := i / 16
				lo := x[96+j%8] >> (4 * (j / 8)) & 15
				hi := x[104+j%4] >> (2 * (j / 4)) & 3
				sc := float64(int(lo|hi<<4) - 32)
				grp := i / 32 // 0..7: which 2-bit field and which hmask bit
				q := int(x[32+32*(grp/4)+i%32]>>(2*(grp%4))) & 3
				if x[i%32]&(1<<grp) == 0 {
					q -= 4
				}
				o[i] = d * sc * float64(q)
			}
		case gguf.Q4_K, gguf.Q5_K:
			d, dmin := refHalf(x), refHalf(x[2:])
			s := x[4:16]
			for i := range 256 {
				j := i / 32
				var sc, m byte
				if j < 4 {
					sc, m = s[j]&63, s[j+4]&63
				} else {
					sc, m = s[j+4]&15|(s[j-4]>>6)<<4, s[j+4]>>4|(s[j]>>6)<<4
				}
				var q byte
				if t == gguf.Q4_K {
					q = x[16+32*(j/2)+i%32] >> (4 * (j % 2)) & 15
				} else {
					q = x[48+32*(j/2)+i%32]>>(4*(j%2))&15 | (x[16+i%32]>>j&1)<<4
				}
				o[i] = d*float64(sc)*float64(q) - dmin*float64(m)
			}
		case gguf.Q6_K:
			d := refHalf(x[208:])
			for i := range 256 {
				half, grp, l := i/128, i%128/32, i%32
				lo := x[64*half+32*(grp%2)+l] >> (4 * (grp / 2)) & 15
				hi := x[128+32*half+l] >> (2 * grp) & 3
				o[i] = d * float64(int8(x[192+i/16])) * float64(int(lo|hi<<4)-32)
			}
		default:
			panic("refDequant: type " + t.String())
		}
	}
	return out
}

func refSmallBlock(t gguf.TensorType, x []byte, o []float64) {
	d := refHalf(x)
	var m float64
	qs, qh := x[2:], uint32(0)
	switch t {
	case gguf.Q4_1:
		m, qs = refHalf(x[2:]), x[4:]
	case gguf.Q5_0:
		qh, qs = binary.LittleEndian.Uint32(x[2:]), x[6:]
	case gguf.Q5_1:
		m, qh, qs = refHalf(x[2:]), binary.LittleEndian.Uint32(x[4:]), x[8:]
	}
	for j := 0; j < 32; j++ {
		q := int(qs[j%16]>>(4*(j/16))) & 15
		if t == gguf.Q5_0 || t == gguf.Q5_1 {
			q |= int(qh>>j&1) << 4
		}
		switch t {
		case gguf.Q4_0:
			o[j] = d * float64(q-8)
		case gguf.Q5_0:
			o[j] = d * float64(q-16)
		default:
			o[j] = d*float64(q) + m
		}
	}
}

// refDequantAct returns the values a quantized activation stands for.
func refDequantAct(w gguf.TensorType, a []byte, n int) []float64 {
	out := make([]float64, n)
	switch ActType(w) {
	case gguf.Q8_0:
		for i := range out {
			out[i] = refHalf(a[34*(i/32):]) * float64(int8(a[34*(i/32)+2+i%32]))
		}
	case gguf.Q8_1:
		for i := range out {
			out[i] = refHalf(a[36*(i/32):]) * float64(int8(a[36*(i/32)+4+i%32]))
		}
	case gguf.Q8_K:
		for i := range out {
			d := math.Float32frombits(binary.LittleEndian.Uint32(a[292*(i/256):]))
			out[i] = float64(d) * float64(int8(a[292*(i/256)+4+i%256]))
		}
	default:
		for i := range out {
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(a[4*i:])))
		}
	}
	return out
}

// randHalf returns f16 bits of a random value with magnitude in [lo, hi).
func randHalf(r *rand.Rand, lo, hi float64, signed bool) uint16 {
	v := lo + (hi-lo)*r.Float64()
	if signed && r.IntN(2) == 0 {
		v = -v
	}
	return F32ToF16(float32(v))
}

// randWeights fills nrows rows of n weights of type t with random bytes and
// valid random scales (never zero), the way a real quantizer's output looks
// to a dot kernel: any bit pattern of quants is legal.
func randWeights(r *rand.Rand, t gguf.TensorType, nrows, n int) []byte {
	buf := make([]byte, nrows*t.RowBytes(n))
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	ts := t.TypeSize()
	put := func(b []byte, h uint16) { binary.LittleEndian.PutUint16(b, h) }
	for off := 0; off < len(buf); off += ts {
		x := buf[off : off+ts]
		switch t {
		case gguf.F32:
			binary.LittleEndian.PutUint32(x, math.Float32bits(float32(r.NormFloat64())))
		case gguf.F16:
			put(x, F32ToF16(float32(r.NormFloat64())))
		case gguf.BF16:
			put(x, uint16(math.Float32bits(float32(r.NormFloat64()))>>16))
		case gguf.Q4_0, gguf.Q5_0, gguf.Q8_0:
			put(x, randHalf(r, 0.002, 0.05, true))
		case gguf.Q4_1, gguf.Q5_1:
			put(x, randHalf(r, 0.002, 0.05, true))
			put(x[2:], randHalf(r, 0.01, 0.5, true))
		case gguf.Q2_K:
			put(x[80:], randHalf(r, 0.002, 0.05, false))
			put(x[82:], randHalf(r, 0.002, 0.05, false))
		case gguf.Q3_K:
			put(x[108:], randHalf(r, 0.002, 0.05, true))
		case gguf.Q4_K, gguf.Q5_K:
			put(x, randHalf(r, 0.0005, 0.005, false))
			put(x[2:], randHalf(r, 0.0005, 0.005, false))
		case gguf.Q6_K:
			put(x[208:], randHalf(r, 0.0001, 0.002, true))
		}
	}
	return buf
}

// randActivation returns n values like a hidden state: mostly modest, a few
// outliers, different block maxima.
func randActivation(r *rand.Rand, n int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
		if r.IntN(50) == 0 {
			x[i] *= 8
		}
	}
	return x
}
