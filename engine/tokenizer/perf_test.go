package tokenizer

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"
)

// timeEncode returns the best of three runs, which filters out the noise of
// a busy machine better than one measurement.
func timeEncode(tk *Tokenizer, s string) time.Duration {
	best := time.Duration(1 << 62)
	for range 3 {
		runtime.GC()
		t0 := time.Now()
		tk.Encode(s, false, true)
		best = min(best, time.Since(t0))
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

// TestLinearTime feeds every vocabulary 256 KB and 1 MB of inputs that
// defeat naive implementations (one letter repeated, which makes one huge
// word; random bytes, mostly invalid UTF-8; for Llama 3 also a huge
// whitespace run and a run of Han characters) and requires the time to
// grow about linearly: 4x the input may take at most 8x the time, where a
// quadratic algorithm would take 16x.
func TestLinearTime(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const small, large = 256 << 10, 1 << 20
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
			ta, tb := timeEncode(tk, a), timeEncode(tk, b)
			ratio := float64(tb) / float64(max(ta, time.Microsecond))
			t.Logf("%s/%s: 256 KB %v, 1 MB %v (x%.1f)", name, in.name, ta, tb, ratio)
			// Linear is 4x, quadratic 16x; on a loaded 2-core machine even
			// the best of three runs has been seen at 8.1x, so the line
			// sits between the two.
			if ratio > 11 {
				t.Errorf("%s/%s: 4x the input took %.1fx the time (256 KB %v, 1 MB %v)", name, in.name, ratio, ta, tb)
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
