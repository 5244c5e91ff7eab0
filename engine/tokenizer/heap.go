package tokenizer

import "math"

// cand is a candidate merge of the symbol at `left` with the symbol after
// it. key orders the candidates (lowest first) and ends in the left index,
// so that ties go to the leftmost pair as in llama.cpp. size is the joined
// length when the candidate was made: if either symbol has changed since,
// the sizes no longer add up and the candidate is stale.
type cand struct {
	key    uint64
	size   int32
	merged int32 // BPE: the token the merge makes
}

func (c cand) left() int32 { return int32(uint32(c.key)) }

// candHeap is a 4-ary min-heap: half the depth of a binary heap and
// children side by side in memory, which matters for the million-symbol
// words of pathological inputs.
type candHeap []cand

func (h *candHeap) push(c cand) {
	a := append(*h, c)
	i := len(a) - 1
	for i > 0 {
		up := (i - 1) / 4
		if a[up].key <= c.key {
			break
		}
		a[i] = a[up]
		i = up
	}
	a[i] = c
	*h = a
}

func (h *candHeap) pop() cand {
	a := *h
	top := a[0]
	n := len(a) - 1
	last := a[n]
	a = a[:n]
	if n > 0 {
		a.siftDown(0, last)
	}
	*h = a
	return top
}

// siftDown places c at or below i.
func (a candHeap) siftDown(i int, c cand) {
	n := len(a)
	for {
		first := 4*i + 1
		if first >= n {
			break
		}
		m := first
		for j := first + 1; j < first+4 && j < n; j++ {
			if a[j].key < a[m].key {
				m = j
			}
		}
		if a[m].key >= c.key {
			break
		}
		a[i] = a[m]
		i = m
	}
	a[i] = c
}

// heapify orders a slice filled in any order.
func (a candHeap) heapify() {
	if len(a) < 2 {
		return
	}
	for i := (len(a) - 2) / 4; i >= 0; i-- {
		a.siftDown(i, a[i])
	}
}

// bpeKey orders BPE candidates: lowest merge rank first.
func bpeKey(rank, left int32) uint64 { return uint64(uint32(rank))<<32 | uint64(uint32(left)) }

// spmKey orders SentencePiece candidates: highest score first. The float's
// bits are mapped to an order-preserving integer and inverted.
func spmKey(score float32, left int32) uint64 {
	if score == 0 {
		score = 0 // -0 and +0 compare equal in llama.cpp
	}
	b := math.Float32bits(score)
	if b&0x80000000 != 0 {
		b = ^b
	} else {
		b |= 0x80000000
	}
	return uint64(^b)<<32 | uint64(uint32(left))
}
