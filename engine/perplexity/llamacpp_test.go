package perplexity

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/internal/oracle"
)

// The parity tests run llama.cpp's own llama-perplexity and llama-quantize
// (built by oracle.Tool from the npm package's source and libraries) and
// ember on stories260K over testdata's text, chunks of testCtx tokens.
// llama-perplexity runs one chunk a batch (-b = -c: n_seq 1, as ember) and
// without flash attention (ember's CPU backend follows llama.cpp's
// attention without it).
//
// The bounds hold where llama.cpp loads one of its AVX-512 CPU builds
// (zen4, skylakex, icelake: they agree bit for bit here); its builds for
// older CPUs sum in other orders, which moves the numbers more than ember
// does.
const testCtx = 128

// testChunks are the chunks scored: half the text's (12 of 24), which
// keeps ember's part of the tests near 10 s on two cores.
const testChunks = 12

var textPath = filepath.Join("..", "..", "cmd", "native", "testdata", "perplexity.txt")

// runTool runs a llama.cpp tool and returns its standard output and
// error together.
func runTool(tool string, args ...string) (string, error) {
	bin, err := oracle.Tool(tool)
	if err != nil {
		return "", err
	}
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s %v: %v\n%s", tool, args, err, out)
	}
	return string(out), nil
}

func llamaRun(t *testing.T, tool string, args ...string) string {
	t.Helper()
	out, err := runTool(tool, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// perplexityArgs are llama-perplexity's arguments for model with the
// test's context.
func perplexityArgs(model string, args ...string) []string {
	return append([]string{"-m", model, "-c", strconv.Itoa(testCtx), "-b", strconv.Itoa(testCtx), "-t", "2", "-fa", "off"}, args...)
}

func llamaPerplexity(t *testing.T, model string, args ...string) string {
	t.Helper()
	return llamaRun(t, "llama-perplexity", perplexityArgs(model, args...)...)
}

// parseNumber is the first float after pattern in out.
func parseNumber(out, pattern string) (float64, error) {
	m := regexp.MustCompile(pattern + `\s*(-?[0-9.]+)`).FindStringSubmatch(out)
	if m == nil {
		if len(out) > 3000 {
			out = "...\n" + out[len(out)-3000:]
		}
		return 0, fmt.Errorf("no %q in llama.cpp's output (%d bytes):\n%s", pattern, len(out), out)
	}
	return strconv.ParseFloat(m[1], 64)
}

func number(t *testing.T, out, pattern string) float64 {
	t.Helper()
	v, err := parseNumber(out, pattern)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// storiesModel is ../shared's stories260K (F32).
func storiesModel(t *testing.T) string {
	t.Helper()
	shared := oracle.SharedDir()
	if shared == "" {
		t.Skip("../shared is absent: no stories260K model")
	}
	return filepath.Join(shared, "models", "stories260K.gguf")
}

// stories is storiesModel where llama.cpp's tools can be built.
func stories(t *testing.T) string {
	t.Helper()
	if err := oracle.Available(); err != nil {
		t.Skip(err)
	}
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("no g++ to build llama.cpp's tools")
	}
	return storiesModel(t)
}

func load(t *testing.T, path string) *engine.Engine {
	t.Helper()
	e, err := engine.Load(path, engine.Options{Backend: cpu.New(2)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// f32Bases are llama.cpp's and ember's base files of the F32 model, made
// once for the tests that read them.
var f32Bases f32Files

type f32Files struct {
	once             sync.Once
	dir              string
	llama, ember     string
	llamaPPL, emberP float64
	llamaOut         string
	emberOut         string
	err              error
}

func bases(t *testing.T) (llama, ember string) {
	t.Helper()
	model := stories(t)
	b := &f32Bases
	b.once.Do(func() { b.err = b.make(model) })
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.llama, b.ember
}

func (b *f32Files) make(model string) error {
	var err error
	if b.dir, err = os.MkdirTemp("", "ember-perplexity-"); err != nil {
		return err
	}
	b.llama, b.ember = filepath.Join(b.dir, "llama.base"), filepath.Join(b.dir, "ember.base")
	if b.llamaOut, err = runTool("llama-perplexity", perplexityArgs(model, "-f", textPath, "--chunks", strconv.Itoa(testChunks), "--kl-divergence-base", b.llama)...); err != nil {
		return err
	}
	if b.llamaPPL, err = parseNumber(b.llamaOut, `Final estimate: PPL =`); err != nil {
		return err
	}
	text, err := os.ReadFile(textPath)
	if err != nil {
		return err
	}
	e, err := engine.Load(model, engine.Options{Backend: cpu.New(2)})
	if err != nil {
		return err
	}
	defer e.Close()
	f, err := os.Create(b.ember)
	if err != nil {
		return err
	}
	defer f.Close()
	var out bytes.Buffer
	res, err := Perplexity(e, string(text), f, Options{Ctx: testCtx, Chunks: testChunks, Out: &out})
	if err != nil {
		return err
	}
	b.emberP, b.emberOut = res.PPL, out.String()
	return f.Close()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if f32Bases.dir != "" {
		os.RemoveAll(f32Bases.dir)
	}
	os.Exit(code)
}

// TestPerplexityLikeLlamaCpp: ember's perplexity of the F32 model is
// llama-perplexity's to 4 significant digits, chunk by chunk.
func TestPerplexityLikeLlamaCpp(t *testing.T) {
	bases(t)
	b := &f32Bases
	t.Logf("stories260K F32, ctx %d: ember PPL %.4f, llama.cpp %.4f", testCtx, b.emberP, b.llamaPPL)
	if d := math.Abs(b.emberP-b.llamaPPL) / b.llamaPPL; d > 1e-4 {
		t.Errorf("ember's PPL %.5f, llama.cpp's %.5f: %.1e apart", b.emberP, b.llamaPPL, d)
	}
	re := regexp.MustCompile(`\[(\d+)\]([0-9.]+),`)
	lm, em := re.FindAllStringSubmatch(b.llamaOut, -1), re.FindAllStringSubmatch(b.emberOut, -1)
	if len(lm) != len(em) || len(lm) == 0 {
		t.Fatalf("llama.cpp printed %d chunks, ember %d", len(lm), len(em))
	}
	for i := range lm {
		l, _ := strconv.ParseFloat(lm[i][2], 64)
		e, _ := strconv.ParseFloat(em[i][2], 64)
		if math.Abs(l-e)/l > 1e-4 {
			t.Errorf("chunk %s: ember %s, llama.cpp %s", lm[i][1], em[i][2], lm[i][2])
		}
	}
}

// TestKLDivergenceBothWays: ember's logits against llama.cpp's base file,
// and llama.cpp's against ember's, differ by a mean KL divergence below
// 1e-5 (the saved log-probabilities' rounding alone gives about 1e-6).
func TestKLDivergenceBothWays(t *testing.T) {
	llama, ember := bases(t)
	model := stories(t)
	f, err := os.Open(llama)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	res, err := KLDivergence(load(t, model), f, Options{Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Stats
	if s == nil {
		t.Fatalf("no statistics over %d positions", res.Count)
	}
	lout := llamaPerplexity(t, model, "--kl-divergence-base", ember, "--kl-divergence")
	lk := number(t, lout, `Mean +KLD:`)
	t.Logf("ember on llama.cpp's base: mean KLD %.2e, max %.2e, same top %.3f%%; llama.cpp on ember's: mean KLD %.2e",
		s.KLD, s.KLDs[0], 100*s.SameTop, lk)
	if math.Abs(s.KLD) > 1e-5 || math.Abs(lk) > 1e-5 {
		t.Errorf("mean KL divergence %.2e (ember from llama.cpp's base), %.2e (llama.cpp from ember's), want below 1e-5", s.KLD, lk)
	}
	// ember's report is llama-perplexity's: the same lines.
	for _, line := range []string{"Mean PPL(Q)", "Mean    KLD", "99.9%   KLD", "Median  KLD", "RMS Δp", "Same top p", "Maximum Δp"} {
		if !bytes.Contains(out.Bytes(), []byte(line)) || !regexp.MustCompile(regexp.QuoteMeta(line)).MatchString(lout) {
			t.Errorf("%q missing from ember's or llama.cpp's report", line)
		}
	}
}

// TestQuantizedKLDLikeLlamaCpp: files quantized by llama.cpp's own
// llama-quantize, compared with the F32 model's base file (llama.cpp's):
// ember's mean KL divergence is llama-perplexity's within 5%.
// stories260K's rows of 64 are shorter than a K-quant's 256-value block
// (llama-quantize would fall back to other types), so Q8_0 and Q4_0; its
// ffn_down rows of 172 fall back to F16 in both.
func TestQuantizedKLDLikeLlamaCpp(t *testing.T) {
	llama, _ := bases(t)
	model := stories(t)
	dir := t.TempDir()
	for _, typ := range []string{"Q8_0", "Q4_0"} {
		t.Run(typ, func(t *testing.T) {
			q := filepath.Join(dir, typ+".gguf")
			llamaRun(t, "llama-quantize", model, q, typ)
			lout := llamaPerplexity(t, q, "--kl-divergence-base", llama, "--kl-divergence")
			lk, lppl := number(t, lout, `Mean +KLD:`), number(t, lout, `Mean PPL\(Q\)\s*:`)
			f, err := os.Open(llama)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res, err := KLDivergence(load(t, q), f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := res.Stats
			t.Logf("%s: mean KLD ember %.6f, llama.cpp %.6f; PPL ember %.4f, llama.cpp %.4f; same top ember %.3f%%",
				typ, s.KLD, lk, s.PPL, lppl, 100*s.SameTop)
			if math.Abs(s.KLD-lk) > 0.05*lk {
				t.Errorf("%s: mean KLD ember %.6f, llama.cpp %.6f: more than 5%% apart", typ, s.KLD, lk)
			}
		})
	}
}
