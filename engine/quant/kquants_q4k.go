package quant

// Q4_K: 256 values in 8 groups of 32, x = d*sc*q - dmin*m with q in 0..15
// and 6-bit sc, m per group. Layout (144 bytes):
//
//	d, dmin     f16
//	scales[12]  6-bit sc and m of the 8 groups (see kScaleMin)
//	qs[128]     byte 32*p+l: value 64*p+l in the low nibble, 64*p+32+l in the high
const q4KBytes = 144

// kScaleMin unpacks group j's 6-bit scale and min from the 12 packed bytes
// shared by Q4_K and Q5_K: groups 0..3 sit in the low 6 bits of bytes j and
// j+4; groups 4..7 keep their low 4 bits in byte j+4 and their top 2 bits in
// the spare high bits of bytes j-4 and j.
func kScaleMin(s []byte, j int) (sc, m uint8) {
	if j < 4 {
		return s[j] & 63, s[j+4] & 63
	}
	return s[j+4]&15 | (s[j-4]>>6)<<4, s[j+4]>>4 | (s[j]>>6)<<4
}

// kPackScales quantizes 8 group scales and mins to 6 bits against their
// maxima, stores them and the f16 super-scales (d at 0, dmin at 2, scales
// at 4), as the Q4_K/Q5_K reference encoders do.
func kPackScales(y []byte, scales, mins *[8]float32, maxScale, maxMin float32) {
	var invScale, invMin float32
	if maxScale > 0 {
		invScale = 63 / maxScale
	}
	if maxMin > 0 {
		invMin = 63 / maxMin
	}
	s := y[4:16]
	for j := 0; j < 8; j++ {
		ls := min(63, uint8(nearestInt(invScale*scales[j])))
		lm := min(63, uint8(nearestInt(invMin*mins[j])))
		if j < 4 {
			s[j] = ls
			s[j+4] = lm
		} else {
			s[j+4] = ls&15 | (lm&15)<<4
			s[j-4] |= (ls >> 4) << 6
			s[j] |= (lm >> 4) << 6
		}
	}
	putHalf(y, 0, maxScale/63)
	putHalf(y, 2, maxMin/63)
}

// kFitGroups runs the Q4_K/Q5_K group search: weights av|x|+|x| per value,
// an asymmetric fit per group of 32, and returns the maxima.
func kFitGroups(x []float32, nmax int32, rmin float32, nstep int, L *[256]uint8,
	scales, mins *[8]float32) (maxScale, maxMin float32) {
	var (
		weights [32]float32
		laux    [32]uint8
	)
	for j := 0; j < 8; j++ {
		xs := x[32*j : 32*j+32]
		var sumX2 float32
		for _, v := range xs {
			sumX2 += float32(v * v)
		}
		av := sqrt32(sumX2 / 32)
		for l, v := range xs {
			weights[l] = av + abs32(v)
		}
		scales[j], mins[j] = makeQKX2Quants(nmax, xs, weights[:], L[32*j:32*j+32], laux[:], rmin, 0.1, nstep, false)
		maxScale = max32Pos(maxScale, scales[j])
		maxMin = max32Pos(maxMin, mins[j])
	}
	return maxScale, maxMin
}

// kRequantize recomputes every level against the stored (rounded) group
// scales and mins, which is what the decoder will use.
func kRequantize(x []float32, y []byte, nmax int32, L *[256]uint8) {
	d0, m0 := halfAt(y, 0), halfAt(y, 2)
	for j := 0; j < 8; j++ {
		sc, m := kScaleMin(y[4:16], j)
		d := d0 * float32(sc)
		if d == 0 {
			continue
		}
		dm := float32(m0 * float32(m)) // rounded: no fused add on arm64
		for i, v := range x[32*j : 32*j+32] {
			L[32*j+i] = uint8(clampInt(nearestInt((v+dm)/d), 0, nmax))
		}
	}
}

func encodeQ4_K(src []float32, dst []byte) {
	var (
		L            [256]uint8
		scales, mins [8]float32
	)
	for b := 0; b < len(src)/256; b++ {
		x, y := src[256*b:256*b+256], dst[q4KBytes*b:q4KBytes*b+q4KBytes]
		maxScale, maxMin := kFitGroups(x, 15, -1, 20, &L, &scales, &mins)
		kPackScales(y, &scales, &mins, maxScale, maxMin)
		kRequantize(x, y, 15, &L)
		q := y[16:144]
		for p := 0; p < 4; p++ {
			for l := 0; l < 32; l++ {
				q[32*p+l] = L[64*p+l] | L[64*p+32+l]<<4
			}
		}
	}
}

func decodeQ4_K(src []byte, dst []float32) {
	for b := 0; b < len(dst)/256; b++ {
		x, y := src[q4KBytes*b:q4KBytes*b+q4KBytes], dst[256*b:256*b+256]
		d, mn := halfAt(x, 0), halfAt(x, 2)
		for p := 0; p < 4; p++ {
			sc1, m1 := kScaleMin(x[4:16], 2*p)
			sc2, m2 := kScaleMin(x[4:16], 2*p+1)
			d1, mn1 := d*float32(sc1), float32(mn*float32(m1))
			d2, mn2 := d*float32(sc2), float32(mn*float32(m2))
			q := x[16+32*p : 16+32*p+32]
			lo, hi := y[64*p:64*p+32], y[64*p+32:64*p+64]
			for l, v := range q {
				lo[l] = float32(d1*float32(v&15)) - mn1
				hi[l] = float32(d2*float32(v>>4)) - mn2
			}
		}
	}
}
