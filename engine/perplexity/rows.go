package perplexity

import (
	"math"
)

// The arithmetic of one scored position, as llama-perplexity does it: in
// float32 where it uses float, in float64 where it uses double, every
// product rounded before the sum it feeds (the explicit conversions keep
// Go from fusing them on arm64), so that ember's numbers and files are
// llama.cpp's for the same logits.

// expf is C's expf: float32 e^x.
func expf(x float32) float32 { return float32(math.Exp(float64(x))) }

// maxSumExp is the row's largest logit, its first index, and the sum of
// e^(logit - max) in float64 over float32 terms.
func maxSumExp(logits []float32) (float32, int, float64) {
	mx, imax := logits[0], 0
	for i, v := range logits[1:] {
		if v > mx {
			mx, imax = v, i+1
		}
	}
	var sum float64
	for _, v := range logits {
		sum += float64(expf(v - mx))
	}
	return mx, imax, sum
}

// nll is the negative log-likelihood of token tok under logits, as
// llama-perplexity computes it when it writes no base file.
func nll(logits []float32, tok int32) float64 {
	mx, _, sum := maxSumExp(logits)
	return -(float64(logits[tok]-mx) - math.Log(sum))
}

// Row is the layout of one position in a base-logits file: two float32
// (scale, minimum log-probability) as four uint16, then one uint16 a
// vocabulary entry, padded to an even count.
func rowLen(vocab int) int { return 2*((vocab+1)/2) + 4 }

// nearestInt is llama.cpp's nearest_int: round to nearest, ties to even,
// by adding 1.5·2^23 in float32.
func nearestInt(f float32) int32 {
	v := f + 12582912
	return int32(math.Float32bits(v)&0x007fffff) - 0x00400000
}

// quantizeRow writes the position's log-probabilities into row (rowLen
// entries) as llama-perplexity saves them: within 16 of the largest, in
// 65535 steps above the smallest kept, and returns the negative
// log-likelihood of tok in the float32 arithmetic it uses there.
func quantizeRow(logits []float32, tok int32, row []uint16) float64 {
	mx, mn := logits[0], logits[0]
	for _, v := range logits[1:] {
		mx = max(mx, v)
		mn = min(mn, v)
	}
	mn = max(mn, mx-16)
	var sum float64
	for _, v := range logits {
		sum += float64(expf(v - mx))
	}
	logSum := float32(math.Log(sum))
	minLogProb := mn - mx - logSum
	scale := (mx - mn) / 65535
	putFloat(row[0:2], scale)
	putFloat(row[2:4], minLogProb)
	q := row[4 : 4+len(logits)]
	if scale != 0 {
		inv := 1 / scale
		for i, v := range logits {
			if v > mn {
				q[i] = uint16(nearestInt(float32(inv * (v - mn))))
			} else {
				q[i] = 0
			}
		}
	} else {
		clear(q)
	}
	clear(row[4+len(logits):])
	return float64(mx + logSum - logits[tok])
}

func putFloat(dst []uint16, f float32) {
	b := math.Float32bits(f)
	dst[0], dst[1] = uint16(b), uint16(b>>16)
}

func getFloat(src []uint16) float32 {
	return math.Float32frombits(uint32(src[0]) | uint32(src[1])<<16)
}

// klRow is one position compared with its base row: the sums it adds and
// the values whose distribution is reported.
type klRow struct {
	nll, nllBase float32 // negative log-likelihoods of the token
	kld          float64 // KL divergence of the model from the base
	pDiff        float32 // the token's probability minus the base's
	sameTop      bool    // the same most likely token
}

// compareRow is llama-perplexity's comparison of a position's logits with
// the base row (base log-probabilities below -16 count as zero).
func compareRow(logits []float32, base []uint16, tok int32) klRow {
	mx, imax, sum := maxSumExp(logits)
	logSum := float32(math.Log(sum))
	scale, minLogProb := getFloat(base[0:2]), getFloat(base[2:4])
	q := base[4:]
	var r klRow
	r.nll = mx + logSum - logits[tok]
	r.nllBase = -(float32(scale*float32(q[tok])) + minLogProb)
	mx += logSum
	var kld float64
	imaxBase := -1
	var baseMax float32
	for i, v := range logits {
		pl := float32(scale*float32(q[i])) + minLogProb
		if i == 0 || pl > baseMax {
			baseMax, imaxBase = pl, i
		}
		if pl > -16 {
			kld += float64(float32(expf(pl) * (pl - v + mx)))
		}
	}
	r.kld = kld
	r.sameTop = imax == imaxBase
	r.pDiff = expf(-r.nll) - expf(-r.nllBase)
	return r
}
