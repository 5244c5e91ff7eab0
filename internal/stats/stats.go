// Package stats holds the small summaries the benchmarks print, written
// once so that `ember bench` and bench/browser report alike.
package stats

import "math"

// MeanSD is the mean of xs and their sample standard deviation (0 for one
// value; NaN for none).
func MeanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) == 1 {
		return mean, 0
	}
	var v float64
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(v / float64(len(xs)-1))
}
