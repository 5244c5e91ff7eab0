package tokenizer

import (
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time this process has used. Unlike the wall clock it
// does not grow while other processes hold the cores, which on a shared
// 2-core machine is most of the noise.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// encodeCost returns the least CPU time of three encodings of s. The
// collector is off while they run, so that the pooled scratch buffers stay
// warm between runs and no collection of earlier garbage lands in a run.
// The word cache that the pool keeps between calls is dropped before each
// run: a small input's words all fit in it and would be free the second
// time, a large input's do not, and the ratio would measure the cache.
func encodeCost(t *testing.T, tk *Tokenizer, s string) time.Duration {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	best := time.Duration(1 << 62)
	for range 3 {
		st := scratchPool.Get().(*scratch)
		st.cache = nil
		scratchPool.Put(st)
		t0 := cpuTime(t)
		tk.Encode(s, false, true)
		best = min(best, cpuTime(t)-t0)
	}
	return best
}

func randomBytes(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return string(b)
}

// TestLinearTime feeds every vocabulary 128 KB and 2 MB of inputs that
// defeat naive implementations (one letter repeated, which makes one huge
// word; random bytes, mostly invalid UTF-8; for Llama 3 also a huge
// whitespace run and a run of Han characters) and requires the cost to
// grow about linearly. 16x the input costs 16x (linear) to 256x
// (quadratic); the heap's log factor and a working set that leaves the
// caches add up to about 2x more, so the bound sits at 64x, a factor four
// from either side.
func TestLinearTime(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const small, large = 128 << 10, 2 << 20
	type input struct {
		name string
		gen  func(n int) string
	}
	letter := input{"letter", func(n int) string { return strings.Repeat("a", n) }}
	random := input{"random bytes", func(n int) string { return randomBytes(r, n) }}
	space := input{"spaces", func(n int) string { return strings.Repeat(" ", n) }}
	han := input{"han", func(n int) string { return strings.Repeat("中", n/3) }}
	for _, name := range vocabNames {
		tk := loadVocab(t, name)
		inputs := []input{letter, random}
		if name == "llama-bpe" {
			inputs = append(inputs, space, han)
		}
		for _, in := range inputs {
			a, b := in.gen(small), in.gen(large)
			ta, tb := encodeCost(t, tk, a), encodeCost(t, tk, b)
			// Rusage ticks can be coarse: never divide by less than a
			// millisecond.
			ratio := float64(tb) / float64(max(ta, time.Millisecond))
			t.Logf("%s/%s: 128 KB %v, 2 MB %v CPU (x%.1f)", name, in.name, ta, tb, ratio)
			if ratio > 64 {
				t.Errorf("%s/%s: 16x the input took %.1fx the CPU time (128 KB %v, 2 MB %v)", name, in.name, ratio, ta, tb)
			}
		}
	}
}

// BenchmarkEncodeEnglish reports the throughput on English-like prose.
func BenchmarkEncodeEnglish(b *testing.B) {
	text := englishText(rand.New(rand.NewPCG(1, 2)), 1<<20)
	for _, name := range vocabNames {
		b.Run(name, func(b *testing.B) {
			tk := loadVocab(b, name)
			b.SetBytes(int64(len(text)))
			b.ResetTimer()
			for b.Loop() {
				tk.Encode(text, false, false)
			}
		})
	}
}
