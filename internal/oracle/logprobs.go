package oracle

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// Forced is one teacher-forced run of llama.cpp for Logprobs: the model,
// the whole token sequence, and how many of its first ids go in as one
// prompt batch (the rest go in one at a time).
type Forced struct {
	Model  string
	Prompt int
	IDs    []int32
}

// LogprobTie is how far apart two of Logprobs' values may be and still be
// equal in llama.cpp: logprobs.mjs prints them to 7 decimals, half a unit
// of rounding each, from single-precision probabilities.
const LogprobTie = 2e-7

// Logprobs is LogprobsIn of the folder Node runs in.
func Logprobs(runs ...Forced) ([][][]float64, error) {
	dir, err := activeDir()
	if err != nil {
		return nil, err
	}
	return LogprobsIn(dir, runs...)
}

// LogprobsIn runs llama.cpp (the oracle folder dir) along each run's ids in
// one process (logprobs.mjs): for each run, a row for each position from
// Prompt-1 on, the log-probability of every vocabulary entry (-Inf where
// llama.cpp's sampler gives 0).
func LogprobsIn(dir string, runs ...Forced) ([][][]float64, error) {
	var args []string
	for _, r := range runs {
		s := make([]string, len(r.IDs))
		for i, id := range r.IDs {
			s[i] = strconv.Itoa(int(id))
		}
		args = append(args, r.Model, strconv.Itoa(r.Prompt), strings.Join(s, ","))
	}
	out, err := NodeIn(dir, "logprobs.mjs", args...)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	res := make([][][]float64, len(runs))
	for i, r := range runs {
		n := len(r.IDs) - r.Prompt + 1
		if len(lines) < n {
			return nil, fmt.Errorf("llama.cpp (%s) gave %d rows of log-probabilities for %s, want %d", dir, len(lines), filepath.Base(r.Model), n)
		}
		for _, line := range lines[:n] {
			var row []float64
			for _, f := range strings.Fields(line) {
				v := math.Inf(-1)
				if f != "-inf" {
					if v, err = strconv.ParseFloat(f, 64); err != nil {
						return nil, fmt.Errorf("llama.cpp's log-probabilities: %w", err)
					}
				}
				row = append(row, v)
			}
			if len(res[i]) > 0 && len(row) != len(res[i][0]) {
				return nil, fmt.Errorf("llama.cpp's log-probabilities for %s: rows of %d and %d entries", filepath.Base(r.Model), len(res[i][0]), len(row))
			}
			res[i] = append(res[i], row)
		}
		lines = lines[n:]
	}
	if len(lines) != 0 {
		return nil, fmt.Errorf("llama.cpp (%s) gave %d rows of log-probabilities more than asked for", dir, len(lines))
	}
	return res, nil
}
