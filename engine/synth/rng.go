package synth

import "math"

// rng is splitmix64: tiny, fast, and seedable per chunk, so chunks can be
// generated in any order on any number of goroutines and the file is still
// the same for the same seed.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// chunkRNG seeds the generator of one chunk of one tensor.
func chunkRNG(seed uint64, name string, chunk int) rng {
	h := uint64(14695981039346656037) // FNV-1a of the name, mixed with the rest
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	r := rng{seed ^ h*0x9e3779b97f4a7c15}
	r.next()
	r.s ^= uint64(chunk) * 0xd1b54a32d192ed03
	return r
}

// irwinHall4Std is the standard deviation of a sum of four uniform 16-bit
// integers: 65536/sqrt(3).
const irwinHall4Std = 65536 / 1.7320508075688772

// normals fills dst with approximately normal values of mean mean and
// standard deviation std. Each value is the sum of four 16-bit uniforms
// from one 64-bit draw (Irwin-Hall), which is close enough to a Gaussian
// for weights (it is bounded at 3.5 sigma) and much cheaper than
// Box-Muller when billions of values are needed.
func (r *rng) normals(dst []float32, mean, std float32) {
	scale := std / irwinHall4Std
	const center = 4 * 32767.5
	for i := range dst {
		x := r.next()
		s := x&0xffff + x>>16&0xffff + x>>32&0xffff + x>>48
		v := mean + (float32(s)-center)*scale
		if v == 0 {
			v = std * 1e-3 // never an exact zero
		}
		dst[i] = v
	}
}

// llama3Factors are the rope frequency divisors of Llama 3.x's rope
// scaling, one per rotated pair (the values converters store in
// rope_freqs): 1 for short wavelengths, factor for long ones, a smooth
// blend between.
func llama3Factors(headDim int, base float64, l *Llama3Rope) []float32 {
	out := make([]float32, headDim/2)
	lowWave := float64(l.OrigContext) / l.LowFreqFactor
	highWave := float64(l.OrigContext) / l.HighFreqFactor
	for i := range out {
		freq := 1 / math.Pow(base, float64(2*i)/float64(headDim))
		wave := 2 * math.Pi / freq
		switch {
		case wave < highWave:
			out[i] = 1
		case wave > lowWave:
			out[i] = float32(l.Factor)
		default:
			smooth := (float64(l.OrigContext)/wave - l.LowFreqFactor) / (l.HighFreqFactor - l.LowFreqFactor)
			out[i] = float32(1 / ((1-smooth)/l.Factor + smooth))
		}
	}
	return out
}
