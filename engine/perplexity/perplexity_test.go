package perplexity

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomLogits is a row of logits spread like a model's: a few large, a
// long tail below.
func randomLogits(rng *rand.Rand, n int) []float32 {
	l := make([]float32, n)
	for i := range l {
		l[i] = float32(rng.NormFloat64()*3 - 2)
	}
	return l
}

func TestNearestInt(t *testing.T) {
	for _, c := range []struct {
		in   float32
		want int32
	}{{0, 0}, {0.4, 0}, {0.5, 0}, {1.5, 2}, {2.5, 2}, {65534.6, 65535}, {-1.5, -2}, {12345.5, 12346}} {
		if got := nearestInt(c.in); got != c.want {
			t.Errorf("nearestInt(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}

// A row compared with its own saved log-probabilities: the same token
// on top, the same likelihood and KL divergence within the rounding of
// the saved values (half a step of 16/65535 nats).
func TestRowAgainstItself(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, vocab := range []int{7, 512, 32000} {
		logits := randomLogits(rng, vocab)
		row := make([]uint16, rowLen(vocab))
		tok := int32(rng.IntN(vocab))
		v := quantizeRow(logits, tok, row)
		if d := math.Abs(v - nll(logits, tok)); d > 1e-5 {
			t.Errorf("vocab %d: the saved row's nll %v, the plain one's %v", vocab, v, nll(logits, tok))
		}
		r := compareRow(logits, row, tok)
		if !r.sameTop || math.Abs(r.kld) > 8.0/65535 || math.Abs(float64(r.nll-r.nllBase)) > 16.0/65535 || math.Abs(float64(r.pDiff)) > 1e-3 {
			t.Errorf("vocab %d: %+v against itself", vocab, r)
		}
		if len(row)%2 != 0 || len(row) < vocab+4 {
			t.Errorf("vocab %d: row of %d entries", vocab, len(row))
		}
	}
}

// KL divergence of a shifted distribution from the base is what the
// definition gives (computed apart in float64).
func TestRowKLD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const vocab = 256
	base := randomLogits(rng, vocab)
	q := slices.Clone(base)
	for i := range q {
		q[i] += float32(rng.NormFloat64() * 0.3)
	}
	row := make([]uint16, rowLen(vocab))
	quantizeRow(base, 0, row)
	r := compareRow(q, row, 0)
	logp := func(l []float32) []float64 {
		mx := slices.Max(l)
		var s float64
		for _, v := range l {
			s += math.Exp(float64(v - mx))
		}
		out := make([]float64, len(l))
		for i, v := range l {
			out[i] = float64(v-mx) - math.Log(s)
		}
		return out
	}
	lp, lq := logp(base), logp(q)
	var want float64
	for i := range lp {
		if lp[i] > -16 {
			want += math.Exp(lp[i]) * (lp[i] - lq[i])
		}
	}
	if math.Abs(r.kld-want) > 1e-4*want+1e-6 {
		t.Errorf("KL divergence %v, want %v", r.kld, want)
	}
}

func TestBaseFileRoundTrip(t *testing.T) {
	const ctx, vocab, chunks = 8, 5, 2
	tokens := make([]int32, ctx*chunks)
	for i := range tokens {
		tokens[i] = int32(i % vocab)
	}
	var buf bytes.Buffer
	w, err := NewBaseWriter(&buf, BaseHeader{Ctx: ctx, Vocab: vocab, Chunks: chunks, Tokens: tokens})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var want [][]uint16
	for c := 0; c < chunks; c++ {
		rows := w.Rows()
		for j := 0; j < scored(ctx); j++ {
			quantizeRow(randomLogits(rng, vocab), 1, rows[j*rowLen(vocab):(j+1)*rowLen(vocab)])
		}
		want = append(want, slices.Clone(rows))
		if err := w.WriteChunk(); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	// llama-perplexity's layout: magic, n_ctx, n_vocab, n_chunk, tokens, rows.
	if n := buf.Len(); n != 8+12+4*ctx*chunks+2*chunks*scored(ctx)*rowLen(vocab) {
		t.Fatalf("file of %d bytes", n)
	}
	r, err := NewBaseReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if r.Ctx != ctx || r.Vocab != vocab || r.Chunks != chunks || !slices.Equal(r.Tokens, tokens) {
		t.Fatalf("header %d %d %d %v", r.Ctx, r.Vocab, r.Chunks, r.Tokens)
	}
	for c := 0; c < chunks; c++ {
		rows, err := r.ReadChunk()
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rows, want[c]) {
			t.Fatalf("chunk %d differs", c)
		}
	}
	if _, err := r.ReadChunk(); err == nil {
		t.Fatal("read past the last chunk")
	}
	if _, err := NewBaseReader(bytes.NewReader([]byte("_logits!xxxxxxxxxxxx"))); err == nil {
		t.Fatal("accepted a file without the magic")
	}
}

func TestPlanChunk(t *testing.T) {
	for _, c := range []struct {
		ctx, maxOut int
		want        []piece
	}{
		{128, 128, []piece{{0, 128, 64}}},
		{512, 512, []piece{{0, 512, 256}}},
		{1024, 1024, []piece{{0, 512, 1}, {512, 512, 512}}},
		{1536, 1536, []piece{{0, 512, 1}, {512, 512, 256}, {1024, 512, 512}}},
		{128, 40, []piece{{0, 64, 1}, {64, 40, 40}, {104, 24, 24}}},
		{7, 7, []piece{{0, 7, 4}}},
	} {
		if got := planChunk(c.ctx, c.ctx/2, c.maxOut); !slices.Equal(got, c.want) {
			t.Errorf("planChunk(%d, %d, %d) = %v, want %v", c.ctx, c.ctx/2, c.maxOut, got, c.want)
		}
	}
}

// The percentiles interpolate as llama-perplexity's do.
func TestPercentile(t *testing.T) {
	v := []float32{1, 2, 3, 4, 5}
	for _, c := range []struct{ f, want float32 }{{0, 1}, {1, 5}, {0.5, 3}, {0.1, 1.4}, {0.999, 4.996}} {
		if got := percentile(v, c.f); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("percentile %v = %v, want %v", c.f, got, c.want)
		}
	}
	if m := median([]float32{1, 2, 3, 4}); m != 2.5 {
		t.Errorf("median %v", m)
	}
}

// The final estimate's error is the standard error of the mean NLL times
// the perplexity.
func TestEstimate(t *testing.T) {
	var p PPL
	vals := []float64{1, 2, 3, 4}
	for _, v := range vals {
		p.Add(v)
	}
	ppl, err, ok := p.Estimate()
	sd := math.Sqrt((1.5*1.5 + 0.5*0.5 + 0.5*0.5 + 1.5*1.5) / 4 / 3)
	if !ok || math.Abs(ppl-math.Exp(2.5)) > 1e-12 || math.Abs(err-sd*ppl) > 1e-9 {
		t.Errorf("estimate %v ± %v (%v), want %v ± %v", ppl, err, ok, math.Exp(2.5), sd*ppl)
	}
}

// A chunk whose scored positions take several steps (as a device
// backend's do with a large vocabulary), read back a few rows at a time,
// puts each position's logits in its place: the same as one step's, to
// the summation orders of other step sizes.
func TestSplitChunk(t *testing.T) {
	e := load(t, storiesModel(t))
	const ctx = 64
	ev, err := NewEvaluator(e.Model, ctx)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]int32, ctx)
	for i := range chunk {
		chunk[i] = int32(3 + (i*37)%500)
	}
	if err := ev.Chunk(chunk, nil); err != nil {
		t.Fatal(err)
	}
	one := slices.Clone(ev.Logits)
	ev.plan = planChunk(ctx, ev.First, 10)
	defer func(b int) { readBytes = b }(readBytes)
	readBytes = 3 * 4 * ev.Vocab
	steps := 0
	if err := ev.Chunk(chunk, func(int) { steps++ }); err != nil {
		t.Fatal(err)
	}
	if steps != 5 {
		t.Fatalf("%d steps, want 5", steps)
	}
	var d float64
	for i := range one {
		d = max(d, math.Abs(float64(one[i]-ev.Logits[i])))
	}
	if d > 1e-3 {
		t.Errorf("logits of the split chunk differ by up to %g", d)
	}
}
