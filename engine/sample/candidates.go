package sample

import (
	"cmp"
	"math"
	"slices"
)

// cand is one token still in the running.
type cand struct {
	id    int32
	logit float32
}

// better orders candidates most likely first, lower id first on ties, so
// that every selection in this package breaks ties the way Argmax does.
func better(a, b cand) bool {
	return a.logit > b.logit || (a.logit == b.logit && a.id < b.id)
}

func compareCands(a, b cand) int {
	if a.logit != b.logit {
		if a.logit > b.logit {
			return -1
		}
		return 1
	}
	return cmp.Compare(a.id, b.id)
}

func sortCands(c []cand) { slices.SortFunc(c, compareCands) }

// possible reports whether a logit can carry probability: NaN and -Inf cannot.
func possible(v float32) bool { return v > float32(math.Inf(-1)) }

// selectTopK writes into dst the k best tokens of vals, sorted, without
// sorting the whole vocabulary: a min-heap of size k holds the best seen so
// far with the worst at its root, and most tokens of a large vocabulary fail
// the single comparison against that root. O(V + k log k) for typical logits.
func selectTopK(dst []cand, vals []float32, k int) []cand {
	h := dst[:0]
	if k <= 0 {
		return h
	}
	i := 0
	for ; i < len(vals) && len(h) < k; i++ {
		if possible(vals[i]) {
			h = append(h, cand{int32(i), vals[i]})
			siftUp(h, len(h)-1)
		}
	}
	if len(h) == k {
		// The hot loop: one comparison per token. NaN and -Inf never pass
		// it, and since ids arrive in increasing order an equal logit never
		// does either, so ties keep the lowest ids.
		root := h[0].logit
		for ; i < len(vals); i++ {
			if v := vals[i]; v > root {
				h[0] = cand{int32(i), v}
				siftDown(h, 0)
				root = h[0].logit
			}
		}
	}
	sortCands(h)
	return h
}

// The heap is ordered by "worse": the root is the least likely candidate.
func siftUp(h []cand, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !better(h[parent], h[i]) {
			break
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
}

func siftDown(h []cand, i int) {
	n := len(h)
	for {
		worst := i
		l, r := 2*i+1, 2*i+2
		if l < n && better(h[worst], h[l]) {
			worst = l
		}
		if r < n && better(h[worst], h[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

// collectAtLeast writes into dst every token whose logit is >= thr, in id
// order (unsorted by logit).
func collectAtLeast(dst []cand, vals []float32, thr float32) []cand {
	c := dst[:0]
	for i, v := range vals {
		if v >= thr && possible(v) {
			c = append(c, cand{int32(i), v})
		}
	}
	return c
}

// maxLogit returns the largest logit, -Inf when none is larger (NaN skipped).
func maxLogit(vals []float32) float32 {
	m := float32(math.Inf(-1))
	for _, v := range vals {
		if v > m {
			m = v
		}
	}
	return m
}
