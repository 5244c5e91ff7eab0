package synth

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/quantize"
	"github.com/emberllm/ember/internal/oracle"
)

// tinyShapes are every architecture's tiny shape and the deepseek2 variants.
func tinyShapes(t *testing.T) []Config {
	var out []Config
	for _, a := range Archs {
		c, err := Preset("tiny", a)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	for _, v := range []string{"tiny-lite", "tiny-glm", "tiny-kvb"} {
		c, err := Preset(v, "")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

func writeTiny(t *testing.T, c Config, typ string, seed uint64, workers int, path string) *Config {
	t.Helper()
	s, err := quantize.ParseScheme(typ, false)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Mix {
		s.Pure = true
	}
	v, err := BuiltinVocab(c.Vocab)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(v); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := Write(&buf, &c, v, Options{Scheme: s, Seed: seed, Workers: workers}); err != nil {
		t.Fatalf("%s %s: %v", c.Name, typ, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return &c
}

func readAll(t *testing.T, r *gguf.Reader, ti *gguf.TensorInfo) []float32 {
	t.Helper()
	b, err := r.TensorData(ti)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, ti.Elements())
	if err := quantize.Decode(ti.Type, b, out); err != nil {
		t.Fatalf("%s: %v", ti.Name, err)
	}
	return out
}

// The files re-read with engine/gguf hold exactly the planned tensors, in
// the planned types, with the metadata llama.cpp needs; the F32 values have
// the intended statistics; the quantized files hold the same values within
// their type's error.
func TestTinyRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, c0 := range tinyShapes(t) {
		var ref *gguf.Reader
		types := []string{"F32", "Q8_0"}
		if c0.Name == "tiny-qwen3moe" || c0.Name == "tiny-glm" {
			types = append(types, "Q4_K_M") // k-quant encoding is the slow part
		}
		for _, typ := range types {
			path := filepath.Join(dir, c0.Name+"-"+typ+".gguf")
			c := writeTiny(t, c0, typ, 3, 2, path)
			r, err := gguf.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			s, _ := quantize.ParseScheme(typ, false)
			if !s.Mix {
				s.Pure = true
			}
			layout := Layout(c, s)
			files := r.InFileOrder()
			if len(files) != len(layout) {
				t.Fatalf("%s %s: %d tensors, planned %d", c.Name, typ, len(files), len(layout))
			}
			for i, want := range layout {
				got := files[i]
				if got.Name != want.Name || fmt.Sprint(got.Dims) != fmt.Sprint(want.Dims) || got.Type != want.Type {
					t.Errorf("%s %s: tensor %d is %s %v %s, want %s %v %s", c.Name, typ, i, got.Name, got.Dims, got.Type, want.Name, want.Dims, want.Type)
				}
			}
			if a := r.Architecture(); a != c.Arch.GGUFArch() {
				t.Errorf("%s: architecture %q", c.Name, a)
			}
			if ft, _ := r.Metadata.Uint("general.file_type"); ft != uint64(s.File) {
				t.Errorf("%s %s: file_type %d, want %d", c.Name, typ, ft, s.File)
			}
			if n, _ := r.Metadata.Uint(c.Arch.GGUFArch() + ".block_count"); n != uint64(c.Layers) {
				t.Errorf("%s: block_count %d", c.Name, n)
			}
			if typ == "F32" {
				ref = r
				checkStats(t, c, r)
				continue
			}
			// same seed, same values: compare with the F32 file
			for _, ti := range files {
				want := readAll(t, ref, ref.Tensors[indexOf(ref, ti.Name)])
				got := readAll(t, r, ti)
				checkClose(t, c.Name+" "+typ+" "+ti.Name, ti.Type, want, got)
			}
		}
	}
}

func indexOf(r *gguf.Reader, name string) int {
	for i, t := range r.Tensors {
		if t.Name == name {
			return i
		}
	}
	return -1
}

// checkClose bounds the quantization error by the type's step size: the
// RMS error relative to the values' RMS.
func checkClose(t *testing.T, what string, typ gguf.TensorType, want, got []float32) {
	t.Helper()
	bound := map[gguf.TensorType]float64{gguf.F32: 0, gguf.F16: 1e-3, gguf.Q8_0: 0.01, gguf.Q6_K: 0.03,
		gguf.Q5_0: 0.06, gguf.Q5_1: 0.06, gguf.Q5_K: 0.05, gguf.Q4_0: 0.12, gguf.Q4_K: 0.1}[typ]
	var e, s float64
	for i := range want {
		d := float64(want[i] - got[i])
		e += d * d
		s += float64(want[i]) * float64(want[i])
	}
	if rel := math.Sqrt(e / s); rel > bound || typ != gguf.F32 && bound == 0 {
		t.Errorf("%s (%s): relative RMS error %.4f, allowed %.4f", what, typ, rel, bound)
	}
}

// checkStats: weight matrices have mean ~0 and standard deviation
// 1/sqrt(row length), norms mean ~1 and deviation 0.1, nothing is zero.
func checkStats(t *testing.T, c *Config, r *gguf.Reader) {
	t.Helper()
	kinds := map[string]Kind{}
	for _, p := range c.Plan() {
		kinds[p.Name] = p.Kind
	}
	for _, ti := range r.InFileOrder() {
		v := readAll(t, r, ti)
		var sum, sq float64
		for _, x := range v {
			if x == 0 || math.IsNaN(float64(x)) {
				t.Fatalf("%s %s: value %v", c.Name, ti.Name, x)
			}
			sum += float64(x)
			sq += float64(x) * float64(x)
		}
		n := float64(len(v))
		mean := sum / n
		std := math.Sqrt(sq/n - mean*mean)
		var wantMean, wantStd float64
		switch kinds[ti.Name] {
		case Matrix, Router:
			wantMean, wantStd = 0, 1/math.Sqrt(float64(ti.Dims[0]))
		case Norm:
			wantMean, wantStd = 1, 0.1
		case Bias:
			wantMean, wantStd = 0, 0.01
		case ProjBias:
			wantMean, wantStd = 0, 0.5
		case RopeFreqs:
			continue
		}
		tol := 4 * wantStd / math.Sqrt(n) // the mean's own spread
		if math.Abs(mean-wantMean) > tol+1e-9 || math.Abs(std-wantStd) > wantStd*(0.05+4/math.Sqrt(n)) {
			t.Errorf("%s %s: mean %.4f std %.4f, want %.4f and %.4f", c.Name, ti.Name, mean, std, wantMean, wantStd)
		}
	}
}

// The rope factors are Llama 3's: 1 for the fastest rotations, the full
// factor for the slowest.
func TestLlama3Factors(t *testing.T) {
	f := llama3Factors(128, 500000, &Llama3Rope{Factor: 8, LowFreqFactor: 1, HighFreqFactor: 4, OrigContext: 8192})
	if f[0] != 1 || f[63] != 8 {
		t.Fatalf("factors %v ... %v", f[0], f[63])
	}
	for i := 1; i < len(f); i++ {
		if f[i] < f[i-1] {
			t.Fatalf("factors not increasing at %d: %v", i, f)
		}
	}
}

func fileHash(t *testing.T, p string) [32]byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// The same seed writes the same bytes whatever the number of workers; a
// different seed writes different weights.
func TestDeterminism(t *testing.T) {
	dir := t.TempDir()
	c, _ := Preset("tiny", Qwen3MoE)
	a, b, d := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c")
	writeTiny(t, c, "Q4_K_M", 7, 1, a)
	writeTiny(t, c, "Q4_K_M", 7, 2, b)
	writeTiny(t, c, "Q4_K_M", 8, 2, d)
	if fileHash(t, a) != fileHash(t, b) {
		t.Error("same seed, different files")
	}
	if fileHash(t, a) == fileHash(t, d) {
		t.Error("different seeds, same file")
	}
}

type checkResult struct {
	Model      string    `json:"model"`
	OK         bool      `json:"ok"`
	Error      string    `json:"error"`
	Tokens     []int     `json:"tokens"`
	Confidence []float64 `json:"confidence"`
}

// CheckInLlamaCpp loads each file in llama.cpp and generates n tokens from
// a short prompt; it fails the test for every file llama.cpp refuses or
// runs into non-finite probabilities.
func CheckInLlamaCpp(t *testing.T, n int, vocab map[string]int, paths ...string) []checkResult {
	t.Helper()
	if err := oracle.Available(); err != nil {
		t.Skip("llama.cpp oracle not available: ", err)
	}
	out, err := oracle.Node("synth_check.mjs", append([]string{fmt.Sprint(n), "1,2,3,4,5", "--"}, paths...)...)
	if err != nil {
		t.Fatal(err)
	}
	var res []checkResult
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r checkResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("oracle output %q: %v", line, err)
		}
		res = append(res, r)
		if !r.OK {
			t.Errorf("llama.cpp refused %s: %s", filepath.Base(r.Model), r.Error)
			continue
		}
		if len(r.Tokens) != n {
			t.Errorf("%s: %d tokens, want %d", filepath.Base(r.Model), len(r.Tokens), n)
		}
		for i, tok := range r.Tokens {
			p := r.Confidence[i]
			if tok < 0 || tok >= vocab[r.Model] || !(p > 0 && p <= 1) {
				t.Errorf("%s: token %d with probability %v", filepath.Base(r.Model), tok, p)
			}
		}
	}
	if len(res) != len(paths) {
		t.Errorf("oracle answered for %d of %d files", len(res), len(paths))
	}
	return res
}

// Every tiny shape, in float, legacy and k-quant types, loads and
// generates in llama.cpp.
func TestTinyLoadsInLlamaCpp(t *testing.T) {
	if err := oracle.Available(); err != nil {
		t.Skip("llama.cpp oracle not available: ", err)
	}
	dir := t.TempDir()
	var paths []string
	vocab := map[string]int{}
	for _, c := range tinyShapes(t) {
		types := []string{"F16", "Q8_0", "Q4_0", "Q4_K_M"}
		if c.Name == "tiny-llama" || c.Name == "tiny-deepseek2" {
			types = append(types, "BF16", "Q5_1", "Q6_K")
		}
		for _, typ := range types {
			p := filepath.Join(dir, c.Name+"-"+typ+".gguf")
			cc := writeTiny(t, c, typ, 1, 2, p)
			paths = append(paths, p)
			vocab[p] = cc.Vocab
		}
	}
	CheckInLlamaCpp(t, 4, vocab, paths...)
}

// A vocabulary copied from a real tokenizer file sets the vocabulary size
// and carries every tokenizer key.
func TestVocabFromFile(t *testing.T) {
	sd := oracle.SharedDir()
	if sd == "" {
		t.Skip("../shared is absent")
	}
	path := filepath.Join(sd, "vocab", "ggml-vocab-qwen2.gguf")
	v, err := VocabFromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if v.Size != 151936 {
		t.Fatalf("qwen2 vocabulary has %d tokens", v.Size)
	}
	c, _ := Preset("tiny", Qwen3)
	if err := c.Apply(v); err != nil {
		t.Fatal(err)
	}
	s, _ := quantize.ParseScheme("Q8_0", true)
	out := filepath.Join(t.TempDir(), "q.gguf")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(f, &c, v, Options{Scheme: s, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	r, err := gguf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if pre, _ := r.Metadata.String("tokenizer.ggml.pre"); pre != "qwen2" {
		t.Errorf("pre-tokenizer %q", pre)
	}
	if ti, ok := r.Tensor("token_embd.weight"); !ok || ti.Dims[1] != 151936 {
		t.Errorf("token_embd %v", ti)
	}
	CheckInLlamaCpp(t, 3, map[string]int{out: v.Size}, out)
}
