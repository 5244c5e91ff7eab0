package quant

import (
	"encoding/binary"
	"math"
)

// Pure-Go kernels for the 256-value K-quant types against a Q8_K
// activation (f32 d at 0, int8 qs at 4, int16 bsums at 260). Each super
// block yields an exact integer dot (scales applied) and, for types with
// minimums, an exact integer sum of min*bsum; the float part is one or two
// roundings per super block added to a running sum. llama.cpp's generic C
// spreads the integer part over eight float lanes instead; the difference
// is a few ulps of the result. The assembly follows this order exactly.
//
// Block layouts (offsets in bytes):
//
//	Q2_K (84):  scales[16] @0 (lo nibble scale, hi nibble min), qs[64] @16, f16 d @80, f16 dmin @82
//	Q3_K (110): hmask[32] @0, qs[64] @32, scales[12] @96 (16 x 6 bit, -32), f16 d @108
//	Q4_K (144): f16 d @0, f16 dmin @2, scales[12] @4 (8 x 6 bit scale and min), qs[128] @16
//	Q5_K (176): f16 d @0, f16 dmin @2, scales[12] @4, qh[32] @16, qs[128] @48
//	Q6_K (210): ql[128] @0, qh[64] @128, scales[16] int8 @192, f16 d @208

func q8Kd(y []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(y)) }

func q8Kbsum(y []byte, j int) int32 { return int32(int16(binary.LittleEndian.Uint16(y[260+2*j:]))) }

func dotQ2_K(w, a []byte, n int) float32 {
	var sum float32
	for b := 0; b < n/256; b++ {
		x, y := w[84*b:84*b+84], a[q8KBytes*b:q8KBytes*b+q8KBytes]
		var isum, summs int32
		for j := 0; j < 16; j++ {
			summs += q8Kbsum(y, j) * int32(x[j]>>4)
		}
		for i := 0; i < 256; i += 16 {
			h, s := i/128, uint(i%128/32)
			qs, ys := x[16+32*h+i%32:][:16], y[4+i:][:16]
			var sub int32
			for l, q := range qs {
				sub += int32(q>>(2*s)&3) * int32(int8(ys[l]))
			}
			isum += int32(x[i/16]&15) * sub
		}
		yd := q8Kd(y)
		dall := float32(yd * f16at(x, 80))
		dmin := float32(yd * f16at(x, 82))
		sum += float32(float32(dall*float32(isum)) - float32(dmin*float32(summs)))
	}
	return sum
}

// q3KScales unpacks Q3_K's sixteen 6-bit scales (stored as 4 low bits in
// bytes 0..7 and 2 high bits in bytes 8..11) and removes their bias of 32.
func q3KScales(s []byte) (out [16]int32) {
	for j := 0; j < 16; j++ {
		lo := int32(s[j%8]>>(4*(j/8))) & 15
		hi := int32(s[8+j%4]>>(2*(j/4))) & 3
		out[j] = lo | hi<<4 - 32
	}
	return out
}

func dotQ3_K(w, a []byte, n int) float32 {
	var sum float32
	for b := 0; b < n/256; b++ {
		x, y := w[110*b:110*b+110], a[q8KBytes*b:q8KBytes*b+q8KBytes]
		sc := q3KScales(x[96:108])
		var isum int32
		for i := 0; i < 256; i += 16 {
			h, s := i/128, uint(i%128/32)
			qs, hm, ys := x[32+32*h+i%32:][:16], x[i%32:][:16], y[4+i:][:16]
			var sub int32
			for l, q := range qs {
				v := int32(q>>(2*s)) & 3
				if hm[l]>>(4*uint(h)+s)&1 == 0 {
					v -= 4
				}
				sub += v * int32(int8(ys[l]))
			}
			isum += sc[i/16] * sub
		}
		d := float32(f16at(x, 108) * q8Kd(y))
		sum += float32(d * float32(isum))
	}
	return sum
}

// q4KScaleMin unpacks scale and min j of Q4_K/Q5_K's 12-byte table: the
// first four pairs are the low 6 bits of bytes j and j+4; the last four take
// 4 bits from byte j+4 and their top 2 bits from the spare bits of bytes
// j-4 (scale) and j (min).
func q4KScaleMin(s []byte, j int) (sc, m int32) {
	if j < 4 {
		return int32(s[j] & 63), int32(s[j+4] & 63)
	}
	sc = int32(s[j+4]&15) | int32(s[j-4]>>6)<<4
	m = int32(s[j+4]>>4) | int32(s[j]>>6)<<4
	return sc, m
}
