package quant

import "math"

// The scale searches of ggml's k-quant reference encoders. Each one picks,
// for a small group of values, a scale (and for the asymmetric kinds a
// minimum) and the integer levels that go with it, by trying a few dozen
// candidate scales and keeping the one with the least weighted error.
//
// Bit-exactness with ggml rests on doing the same float32 operations in the
// same order: sums run left to right, and every product that feeds an
// addition is wrapped in float32() so the Go compiler cannot fuse it into an
// FMA (C as ggml is built rounds each operation separately).

// groupMaxEps is ggml's GROUP_MAX_EPS: below it a group counts as all zero.
const groupMaxEps = 1e-15

// nearestInt rounds to nearest, ties to even, the way ggml does it: adding
// 1.5*2^23 pushes the fraction out of a float32's mantissa. Valid for
// |f| <= 2^22; beyond that (only for non-finite or absurd inputs) the result
// is garbage, as in ggml, but never a panic. The conversion keeps a caller's
// nearestInt(a*b) from becoming one fused multiply-add once inlined.
func nearestInt(f float32) int32 {
	v := float32(f) + 12582912
	return int32(math.Float32bits(v)&0x7fffff) - 0x400000
}

func sqrt32(f float32) float32 { return float32(math.Sqrt(float64(f))) }

func clampInt(v, lo, hi int32) int32 { return max(lo, min(hi, v)) }

// makeQKX2Quants fits x ~ scale*L + min with L in 0..nmax, min <= 0, under
// the given weights (make_qkx2_quants): first the plain min/max grid, then
// nstep+1 alternative grids of nmax+rmin+rdelta*is steps, each refined by a
// weighted least-squares solve. useMad scores with |error| instead of
// error^2. It returns the scale and -min; laux is scratch of len(x), and
// len(x) is at most 32.
func makeQKX2Quants(nmax int32, x, weights []float32, L, laux []uint8,
	rmin, rdelta float32, nstep int, useMad bool) (scale, negMin float32) {
	n := len(x)
	weights, L, laux = weights[:n], L[:n], laux[:n]
	mn, mx := x[0], x[0]
	sumW := weights[0]
	sumX := sumW * x[0]
	for i := 1; i < n; i++ {
		if x[i] < mn {
			mn = x[i]
		}
		if x[i] > mx {
			mx = x[i]
		}
		sumW += weights[i]
		sumX += float32(weights[i] * x[i])
	}
	if mn > 0 {
		mn = 0
	}
	if mx == mn {
		clear(L)
		return 0, -mn
	}
	fmax := float32(nmax)
	// x - min is the same float in every trial (until min moves), so it is
	// computed once per min rather than once per trial.
	var xmBuf [32]float32
	xm := xmBuf[:n]
	for i, v := range x {
		xm[i] = v - mn
	}
	iscale := fmax / (mx - mn)
	scale = 1 / iscale
	var bestErr float32
	for i, v := range x {
		l := clampInt(nearestInt(float32(iscale*xm[i])), 0, nmax)
		L[i] = uint8(l)
		diff := float32(scale*float32(l)) + mn - v
		if useMad {
			diff = abs32(diff)
		} else {
			diff = diff * diff
		}
		bestErr += float32(weights[i] * diff)
	}
	if nstep < 1 {
		return scale, -mn
	}
	for is := 0; is <= nstep; is++ {
		iscale = (rmin + float32(rdelta*float32(is)) + fmax) / (mx - mn)
		var sumL, sumL2, sumXL float32
		for i, v := range x {
			l := clampInt(nearestInt(float32(iscale*xm[i])), 0, nmax)
			laux[i] = uint8(l)
			fl := float32(l)
			wl := float32(weights[i] * fl) // C's w*l*l and w*l*x round w*l first too
			sumL += wl
			sumL2 += float32(wl * fl)
			sumXL += float32(wl * v)
		}
		D := float32(sumW*sumL2) - float32(sumL*sumL)
		if !(D > 0) {
			continue
		}
		thisScale := (float32(sumW*sumXL) - float32(sumX*sumL)) / D
		thisMin := (float32(sumL2*sumX) - float32(sumL*sumXL)) / D
		if thisMin > 0 {
			thisMin = 0
			thisScale = sumXL / sumL2
		}
		var curErr float32
		for i, v := range x {
			diff := float32(thisScale*float32(laux[i])) + thisMin - v
			if useMad {
				diff = abs32(diff)
			} else {
				diff = diff * diff
			}
			curErr += float32(weights[i] * diff)
		}
		if curErr < bestErr {
			copy(L, laux)
			bestErr, scale, mn = curErr, thisScale, thisMin
			for i, v := range x {
				xm[i] = v - mn
			}
		}
	}
	return scale, -mn
}

// makeQXQuantsRMSE fits x ~ scale*(L-nmax) with L in 0..2*nmax-1, weighting
// each value by x^2 (make_qx_quants with rmse_type 1 and no importance
// weights, the only form the reference encoders use): the grid through the
// largest-magnitude value, then 18 nearby grids, keeping the best fit.
// len(x) is at most 32.
func makeQXQuantsRMSE(nmax int32, x []float32, L []int8) float32 {
	L = L[:len(x)]
	var amax, mx float32
	for _, v := range x {
		if a := abs32(v); a > amax {
			amax, mx = a, v
		}
	}
	if amax < groupMaxEps {
		clear(L)
		return 0
	}
	fmax := float32(nmax)
	// The weights x^2 and products x^2*x are the same in every trial.
	var wBuf, wxBuf [32]float32
	w, wx := wBuf[:len(x)], wxBuf[:len(x)]
	for i, v := range x {
		w[i] = v * v
		wx[i] = w[i] * v
	}
	iscale := -fmax / mx
	var sumLX, sumL2 float32
	for i, v := range x {
		l := clampInt(nearestInt(float32(iscale*v)), -nmax, nmax-1)
		L[i] = int8(l + nmax)
		fl := float32(l)
		sumLX += float32(wx[i] * fl)
		sumL2 += float32(float32(w[i]*fl) * fl)
	}
	var scale float32
	if sumL2 != 0 {
		scale = sumLX / sumL2
	}
	best := scale * sumLX
	for is := -9; is <= 9; is++ {
		if is == 0 {
			continue
		}
		iscale = -(fmax + float32(0.1*float32(is))) / mx
		sumLX, sumL2 = 0, 0
		for i, v := range x {
			fl := float32(clampInt(nearestInt(float32(iscale*v)), -nmax, nmax-1))
			sumLX += float32(wx[i] * fl)
			sumL2 += float32(float32(w[i]*fl) * fl)
		}
		if sumL2 > 0 && sumLX*sumLX > best*sumL2 {
			for i, v := range x {
				L[i] = int8(clampInt(nearestInt(float32(iscale*v)), -nmax, nmax-1) + nmax)
			}
			scale = sumLX / sumL2
			best = scale * sumLX
		}
	}
	return scale
}

// makeQ3Quants is make_q3_quants with do_rmse: the grid through the
// largest-magnitude value, then up to five passes of moving single levels
// while that improves the x^2-weighted fit. L ends in 0..2*nmax-1.
func makeQ3Quants(nmax int32, x []float32, L []int8) float32 {
	L = L[:len(x)]
	var amax, mx float32
	for _, v := range x {
		if a := abs32(v); a > amax {
			amax, mx = a, v
		}
	}
	if amax < groupMaxEps {
		clear(L)
		return 0
	}
	iscale := -float32(nmax) / mx
	var sumLX, sumL2 float32
	for i, v := range x {
		l := clampInt(nearestInt(float32(iscale*v)), -nmax, nmax-1)
		L[i] = int8(l)
		w, fl := v*v, float32(l)
		sumLX += float32(w * v * fl)
		sumL2 += float32(w * fl * fl)
	}
	for try := 0; try < 5; try++ {
		changed := false
		for i, v := range x {
			w, fl := v*v, float32(L[i])
			slx := sumLX - float32(w*v*fl)
			if !(slx > 0) {
				continue
			}
			sl2 := sumL2 - float32(w*fl*fl)
			newL := clampInt(nearestInt(v*sl2/slx), -nmax, nmax-1)
			if newL == int32(L[i]) {
				continue
			}
			fn := float32(newL)
			slx += float32(w * v * fn)
			sl2 += float32(w * fn * fn)
			if sl2 > 0 && slx*slx*sumL2 > sumLX*sumLX*sl2 {
				L[i] = int8(newL)
				sumLX, sumL2 = slx, sl2
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for i := range L {
		L[i] += int8(nmax)
	}
	if sumL2 > 0 {
		return sumLX / sumL2
	}
	return 0
}
