package sample

import "math"

// expNonPos returns e^x for x <= 0, the only exponent the sampler uses (a
// logit minus the maximum, times 1/T). It is written out instead of calling
// math.Exp because math.Exp is assembly on amd64, arm64, loong64 and s390x
// and pure Go elsewhere (wasm, 386), and the versions may differ in the last
// bit; identical bits everywhere is what makes a seed reproduce a run on
// every platform. Every product is wrapped in an explicit float64
// conversion, which the Go spec says prevents fusing it into an FMA (which
// arm64 would otherwise be free to do). Relative error about 3e-16 at worst.
func expNonPos(x float64) float64 {
	switch {
	case x != x:
		return x
	case x < -700:
		// e^-700 relative to the most likely token is nothing any sampler
		// can tell from 0 (llama.cpp's float expf flushes below e^-104), and
		// stopping here keeps the scale factor below a normal number.
		return 0
	case x > 0:
		return math.NaN() // outside the domain; never reached
	}
	const (
		log2e = 1.44269504088896338700e+00
		// ln 2 split in two (Cody–Waite): ln2Hi has its low bits zero, so
		// k*ln2Hi is exact for the |k| <= 1010 reachable here.
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
	)
	k := math.Floor(float64(x*log2e) + 0.5) // exact on every platform
	r := float64(x-float64(k*ln2Hi)) - float64(k*ln2Lo)
	// |r| <= ln2/2 + tiny: the Taylor series to r^13/13! leaves a relative
	// error below 1e-17. Horner's scheme with every step rounded.
	p := 1.0 / 6227020800 // 1/13!
	p = float64(p*r) + 1.0/479001600
	p = float64(p*r) + 1.0/39916800
	p = float64(p*r) + 1.0/3628800
	p = float64(p*r) + 1.0/362880
	p = float64(p*r) + 1.0/40320
	p = float64(p*r) + 1.0/5040
	p = float64(p*r) + 1.0/720
	p = float64(p*r) + 1.0/120
	p = float64(p*r) + 1.0/24
	p = float64(p*r) + 1.0/6
	p = float64(p*r) + 0.5
	p = float64(p*r) + 1
	p = float64(p*r) + 1
	// 2^k as bits: k >= -1010 keeps it, and the product, normal numbers.
	return p * math.Float64frombits(uint64(int64(k)+1023)<<52)
}

// lnUnit returns ln x for x in (0, 1], portable for the same reason as
// expNonPos (math.Log is assembly on amd64 and s390x). x = m·2^e exactly
// with m in [√½, √2), then ln m = 2·atanh(s) with s = (m-1)/(m+1) in
// (-0.172, 0.172), whose odd series s + s³/3 + s⁵/5 ... has shrunk below
// 1e-20 relative by its 13th term.
func lnUnit(x float64) float64 {
	if !(x > 0 && x <= 1) {
		return math.NaN()
	}
	const (
		ln2Hi = 6.93147180369123816490e-01
		ln2Lo = 1.90821492927058770002e-10
	)
	m, e := math.Frexp(x) // exact bit manipulation on every platform
	if m < math.Sqrt2/2 {
		m, e = m*2, e-1 // exact
	}
	s := (m - 1) / (m + 1)
	s2 := float64(s * s)
	var sum float64
	for n := 25.0; n >= 1; n -= 2 {
		sum = float64(sum*s2) + 1/n
	}
	k := float64(e)
	return float64(2*float64(s*sum)) + float64(k*ln2Lo) + float64(k*ln2Hi)
}
