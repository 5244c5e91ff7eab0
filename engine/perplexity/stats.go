package perplexity

import (
	"fmt"
	"io"
	"math"
	"slices"
)

// PPL accumulates negative log-likelihoods into llama-perplexity's running
// perplexity and its final estimate with the standard error.
type PPL struct {
	nll, nll2 float64
	Count     int
}

// Add counts one scored position.
func (p *PPL) Add(v float64) {
	p.nll += v
	p.nll2 += v * v
	p.Count++
}

// Value is e^(mean negative log-likelihood).
func (p *PPL) Value() float64 { return math.Exp(p.nll / float64(p.Count)) }

// Estimate is the perplexity and its error as llama-perplexity's final
// estimate gives them: the error is the standard error of the mean
// negative log-likelihood times the perplexity. ok is false when the
// variance comes out negative (or there are too few positions).
func (p *PPL) Estimate() (ppl, err float64, ok bool) {
	n := float64(p.Count)
	mean := p.nll / n
	v := p.nll2/n - mean*mean
	ppl = math.Exp(mean)
	if v <= 0 || p.Count < 2 {
		return ppl, 0, false
	}
	return ppl, math.Sqrt(v/(n-1)) * ppl, true
}

// KLD accumulates positions compared with a base file, as
// llama-perplexity's kl_divergence does.
type KLD struct {
	sumNLL, sumNLL2     float64
	sumBase, sumBase2   float64
	sumNLLBase          float64
	sumKLD, sumKLD2     float64
	sumPDiff, sumPDiff2 float64
	sumPDiff4           float64
	sameTop             int
	Count               int
	klds, pDiffs        []float32
}

// Add counts one compared position.
func (k *KLD) Add(r klRow) {
	k.sumNLL += float64(r.nll)
	k.sumNLL2 += float64(r.nll * r.nll)
	k.sumBase += float64(r.nllBase)
	k.sumBase2 += float64(r.nllBase * r.nllBase)
	k.sumNLLBase += float64(r.nll * r.nllBase)
	k.sumKLD += r.kld
	k.sumKLD2 += r.kld * r.kld
	if r.sameTop {
		k.sameTop++
	}
	k.sumPDiff += float64(r.pDiff)
	d2 := float64(r.pDiff * r.pDiff)
	k.sumPDiff2 += d2
	k.sumPDiff4 += d2 * d2
	k.Count++
	k.klds = append(k.klds, float32(r.kld))
	k.pDiffs = append(k.pDiffs, r.pDiff)
}

// meanErr is a mean and its standard error (0 with 10 values or fewer).
func meanErr(sum, sum2 float64, count int) (float64, float64) {
	if count < 1 {
		return 0, 0
	}
	n := float64(count)
	f := sum / n
	df := sum2/n - f*f
	if df > 0 && count > 10 {
		df = math.Sqrt(df / (n - 1))
	} else {
		df = 0
	}
	return f, df
}

// covariance of the means of two sums (0 under 10 values).
func covariance(a, b, ab float64, count int) float64 {
	if count < 10 {
		return 0
	}
	n := float64(count)
	return (ab/n - (a/n)*(b/n)) / (n - 1)
}

// Stats are llama-perplexity's numbers of a KL-divergence run.
type Stats struct {
	PPL, PPLErr, BasePPL, BasePPLErr float64
	LogRatio, LogRatioErr            float64 // ln(PPL(Q)/PPL(base))
	Cov, Cor                         float64 // covariance and correlation of ln PPL(Q) and ln PPL(base)
	KLD, KLDErr                      float64 // mean KL divergence
	// KLDs are the maximum, 99.9%, 99%, 95%, 90%, median, 10%, 5%, 1%,
	// 0.1% and minimum of the positions' KL divergences.
	KLDs            [11]float32
	PDiff, PDiffErr float64 // mean Δp
	// PDiffs are the maximum, 99.9%, 99%, 95%, 90%, 75%, median, 25%,
	// 10%, 5%, 1%, 0.1% and minimum Δp.
	PDiffs              [13]float32
	RMSPDiff, RMSErr    float64
	SameTop, SameTopErr float64
	Count               int
}

// Stats computes the summary; it sorts the kept values.
func (k *KLD) Stats() Stats {
	var s Stats
	s.Count = k.Count
	lp, lpe := meanErr(k.sumNLL, k.sumNLL2, k.Count)
	bp, bpe := meanErr(k.sumBase, k.sumBase2, k.Count)
	s.PPL, s.PPLErr = math.Exp(lp), math.Exp(lp)*lpe
	s.BasePPL, s.BasePPLErr = math.Exp(bp), math.Exp(bp)*bpe
	cov := covariance(k.sumNLL, k.sumBase, k.sumNLLBase, k.Count)
	s.Cov, s.Cor = cov, cov/(lpe*bpe)
	s.LogRatio = lp - bp
	s.LogRatioErr = math.Sqrt(lpe*lpe + bpe*bpe - 2*cov)
	s.KLD, s.KLDErr = meanErr(k.sumKLD, k.sumKLD2, k.Count)
	mse, mseErr := meanErr(k.sumPDiff2, k.sumPDiff4, k.Count)
	s.RMSPDiff = math.Sqrt(mse)
	s.RMSErr = 0.5 / s.RMSPDiff * mseErr
	n := float64(k.Count)
	s.SameTop = float64(k.sameTop) / n
	s.SameTopErr = math.Sqrt(s.SameTop * (1 - s.SameTop) / (n - 1))
	s.PDiff, s.PDiffErr = meanErr(k.sumPDiff, k.sumPDiff2, k.Count)
	if k.Count == 0 {
		return s
	}
	slices.Sort(k.klds)
	slices.Sort(k.pDiffs)
	kf := []float32{1, 0.999, 0.990, 0.950, 0.900, -1, 0.100, 0.050, 0.010, 0.001, 0}
	for i, f := range kf {
		if f < 0 {
			s.KLDs[i] = median(k.klds)
		} else {
			s.KLDs[i] = percentile(k.klds, f)
		}
	}
	pf := []float32{1, 0.999, 0.990, 0.950, 0.900, 0.750, -1, 0.250, 0.100, 0.050, 0.010, 0.001, 0}
	for i, f := range pf {
		if f < 0 {
			s.PDiffs[i] = median(k.pDiffs)
		} else {
			s.PDiffs[i] = percentile(k.pDiffs, f)
		}
	}
	return s
}

// percentile interpolates sorted values at fraction f as llama-perplexity
// does, in float32.
func percentile(v []float32, f float32) float32 {
	if f <= 0 {
		return v[0]
	}
	if f >= 1 {
		return v[len(v)-1]
	}
	p := f * float32(len(v)-1)
	ip := int(p)
	p -= float32(ip)
	return float32((1-p)*v[ip]) + float32(p*v[min(ip+1, len(v)-1)])
}

func median(v []float32) float32 {
	n := len(v)
	if n%2 == 0 {
		return 0.5 * (v[n/2] + v[n/2-1])
	}
	return v[n/2]
}

// chunkHeader is the head of the per-chunk table of a KL-divergence run.
const chunkHeader = "chunk             PPL               ln(PPL(Q)/PPL(base))          KL Divergence              Δp RMS            Same top p\n"

// writeChunk prints the running numbers after chunk i (from 1) as
// llama-perplexity's per-chunk table does.
func (k *KLD) writeChunk(w io.Writer, i int) {
	lp, lpe := meanErr(k.sumNLL, k.sumNLL2, k.Count)
	bp, bpe := meanErr(k.sumBase, k.sumBase2, k.Count)
	cov := covariance(k.sumNLL, k.sumBase, k.sumNLLBase, k.Count)
	kl, kle := meanErr(k.sumKLD, k.sumKLD2, k.Count)
	mse, mseErr := meanErr(k.sumPDiff2, k.sumPDiff4, k.Count)
	rms := math.Sqrt(mse)
	top := float64(k.sameTop) / float64(k.Count)
	fmt.Fprintf(w, "%4d    %9.4f ± %9.4f    %10.5f ± %10.5f    %10.5f ± %10.5f    %6.3f ± %6.3f %%    %6.3f ± %6.3f %%\n",
		i, math.Exp(lp), math.Exp(lp)*lpe,
		lp-bp, math.Sqrt(lpe*lpe+bpe*bpe-2*cov),
		kl, kle,
		100*rms, 100*0.5/rms*mseErr,
		100*top, 100*math.Sqrt(top*(1-top)/float64(k.Count-1)))
}

// Write prints the summary as llama-perplexity's closing statistics.
func (s *Stats) Write(w io.Writer) {
	fmt.Fprintf(w, "====== Perplexity statistics ======\n")
	fmt.Fprintf(w, "Mean PPL(Q)                   : %10.6f ± %10.6f\n", s.PPL, s.PPLErr)
	fmt.Fprintf(w, "Mean PPL(base)                : %10.6f ± %10.6f\n", s.BasePPL, s.BasePPLErr)
	fmt.Fprintf(w, "Cor(ln(PPL(Q)), ln(PPL(base))): %6.2f%%\n", 100*s.Cor)
	fmt.Fprintf(w, "Mean ln(PPL(Q)/PPL(base))     : %10.6f ± %10.6f\n", s.LogRatio, s.LogRatioErr)
	ratio := math.Exp(s.LogRatio)
	fmt.Fprintf(w, "Mean PPL(Q)/PPL(base)         : %10.6f ± %10.6f\n", ratio, ratio*s.LogRatioErr)
	cov := s.PPL * s.BasePPL * s.Cov
	fmt.Fprintf(w, "Mean PPL(Q)-PPL(base)         : %10.6f ± %10.6f\n", s.PPL-s.BasePPL,
		math.Sqrt(s.PPLErr*s.PPLErr+s.BasePPLErr*s.BasePPLErr-2*cov))
	fmt.Fprintf(w, "\n====== KL divergence statistics ======\n")
	fmt.Fprintf(w, "Mean    KLD: %10.6f ± %10.6f\n", s.KLD, s.KLDErr)
	klNames := []string{"Maximum KLD", "99.9%   KLD", "99.0%   KLD", "95.0%   KLD", "90.0%   KLD", "Median  KLD",
		"10.0%   KLD", " 5.0%   KLD", " 1.0%   KLD", " 0.1%   KLD", "Minimum KLD"}
	for i, n := range klNames {
		fmt.Fprintf(w, "%s: %10.6f\n", n, s.KLDs[i])
	}
	fmt.Fprintf(w, "\n====== Token probability statistics ======\n")
	fmt.Fprintf(w, "Mean    Δp: %6.3f ± %5.3f %%\n", 100*s.PDiff, 100*s.PDiffErr)
	pNames := []string{"Maximum Δp", "99.9%   Δp", "99.0%   Δp", "95.0%   Δp", "90.0%   Δp", "75.0%   Δp", "Median  Δp",
		"25.0%   Δp", "10.0%   Δp", " 5.0%   Δp", " 1.0%   Δp", " 0.1%   Δp", "Minimum Δp"}
	for i, n := range pNames {
		fmt.Fprintf(w, "%s: %6.3f%%\n", n, 100*float64(s.PDiffs[i]))
	}
	fmt.Fprintf(w, "RMS Δp    : %6.3f ± %5.3f %%\n", 100*s.RMSPDiff, 100*s.RMSErr)
	fmt.Fprintf(w, "Same top p: %6.3f ± %5.3f %%\n", 100*s.SameTop, 100*s.SameTopErr)
}
