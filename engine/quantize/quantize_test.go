package quantize

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/internal/oracle"
)

func TestParseScheme(t *testing.T) {
	cases := []struct {
		in   string
		pure bool
		file FileType
		def  gguf.TensorType
		mix  bool
	}{
		{"Q4_K_M", false, FileQ4_K_M, gguf.Q4_K, true},
		{"q5_k_s", false, FileQ5_K_S, gguf.Q5_K, true},
		{"Q8_0", false, FileQ8_0, gguf.Q8_0, false},
		{"f16", false, FileF16, gguf.F16, false},
		{"Q4_K", true, FileQ4_K_M, gguf.Q4_K, false}, // a plain K type is always pure
	}
	for _, c := range cases {
		s, err := ParseScheme(c.in, false)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if s.File != c.file || s.Default != c.def || s.Mix != c.mix || s.Pure != c.pure {
			t.Errorf("%s: %+v", c.in, s)
		}
	}
	for _, bad := range []string{"Q9_9", "", "IQ2_XXS", "Q8_K"} {
		if _, err := ParseScheme(bad, false); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// llama.cpp's fallbacks for rows a block does not divide.
func TestFallback(t *testing.T) {
	cases := []struct {
		cols uint64
		in   gguf.TensorType
		want gguf.TensorType
	}{
		{512, gguf.Q4_K, gguf.Q4_K}, {128, gguf.Q4_K, gguf.Q5_0}, {128, gguf.Q5_K, gguf.Q5_1},
		{96, gguf.Q6_K, gguf.Q8_0}, {100, gguf.Q6_K, gguf.F16}, {172, gguf.Q8_0, gguf.F16}, {64, gguf.Q4_0, gguf.Q4_0},
	}
	for _, c := range cases {
		p := &Policy{}
		if got := p.fallback("x", c.cols, c.in); got != c.want {
			t.Errorf("%d columns of %s: %s, want %s", c.cols, c.in, got, c.want)
		}
	}
}

func stories(t *testing.T) string {
	sd := oracle.SharedDir()
	if sd == "" {
		t.Skip("../shared is absent")
	}
	return filepath.Join(sd, "models", "stories260K.gguf")
}

// requantize stories260K and check each tensor against the original.
func requant(t *testing.T, typ string) (string, *Result) {
	t.Helper()
	r, err := gguf.Open(stories(t))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := ParseScheme(typ, false)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "s-"+typ+".gguf")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Requantize(r, f, Options{Scheme: s, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	q, err := gguf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if len(q.Metadata.KVs) < len(r.Metadata.KVs) {
		t.Errorf("metadata: %d keys, source had %d", len(q.Metadata.KVs), len(r.Metadata.KVs))
	}
	if ft, _ := q.Metadata.Uint("general.file_type"); ft != uint64(s.File) {
		t.Errorf("file_type %d, want %d", ft, s.File)
	}
	for _, kv := range r.Metadata.KVs {
		if kv.Key == "general.file_type" {
			continue
		}
		if v, ok := q.Metadata.Get(kv.Key); !ok || fmt.Sprint(v.V) != fmt.Sprint(kv.Value.V) {
			t.Errorf("metadata %s not copied", kv.Key)
		}
	}
	for _, ti := range r.InFileOrder() {
		qi, ok := q.Tensor(ti.Name)
		if !ok {
			t.Fatalf("%s missing", ti.Name)
		}
		if fmt.Sprint(qi.Dims) != fmt.Sprint(ti.Dims) || qi.Type != res.Types[ti.Name] {
			t.Errorf("%s: %v %s, want %v %s", ti.Name, qi.Dims, qi.Type, ti.Dims, res.Types[ti.Name])
		}
		want := decodeAll(t, r, ti)
		got := decodeAll(t, q, qi)
		checkBlockError(t, ti.Name, qi.Type, want, got)
	}
	return out, res
}

func decodeAll(t *testing.T, r *gguf.Reader, ti *gguf.TensorInfo) []float32 {
	b, err := r.TensorData(ti)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float32, ti.Elements())
	if err := Decode(ti.Type, b, v); err != nil {
		t.Fatal(err)
	}
	return v
}

// checkBlockError bounds every value's error by its block's scale: a
// Q8_0 block stores round(x/d) with d = amax/127, so the error is at most
// d/2 plus 127 times the f16 rounding of d (2^-11 d); Q4_0 uses d = amax/8 and the
// extreme value may clip one step, so the bound is d; F16 keeps 11 bits.
func checkBlockError(t *testing.T, name string, typ gguf.TensorType, want, got []float32) {
	t.Helper()
	bs := typ.BlockSize()
	if typ == gguf.F32 || typ == gguf.F16 {
		bs = 1
	}
	for b := 0; b < len(want); b += bs {
		amax := 0.0
		for _, x := range want[b : b+bs] {
			amax = math.Max(amax, math.Abs(float64(x)))
		}
		var bound float64
		switch typ {
		case gguf.F32:
			bound = 0
		case gguf.F16:
			bound = amax*(1.0/2048) + 6e-8
		case gguf.Q8_0:
			bound = amax / 127 * 0.57 // d/2, plus 127 steps of the f16-rounded scale
		case gguf.Q4_0:
			bound = amax / 8 * 1.01
		case gguf.Q5_0:
			bound = amax / 16 * 1.01
		case gguf.Q6_K, gguf.Q4_K, gguf.Q5_K:
			bound = amax / 4 // k-quants: checked tightly by engine/quant; here a sanity bound
		default:
			t.Fatalf("%s: no error bound for %s", name, typ)
		}
		for i := b; i < b+bs; i++ {
			if d := math.Abs(float64(want[i] - got[i])); d > bound {
				t.Fatalf("%s (%s) value %d: %v became %v, error %.3g over the bound %.3g", name, typ, i, want[i], got[i], d, bound)
			}
		}
	}
}

type checkResult struct {
	OK     bool   `json:"ok"`
	Error  string `json:"error"`
	Tokens []int  `json:"tokens"`
}

// stories260K to Q8_0 and Q4_0: its 64-wide rows fit 32-blocks, its
// ffn_down rows of 172 fit none, so those stay F16 as llama.cpp leaves
// them; under Q4_0 the output head takes Q6_K as llama-quantize gives it,
// which 64 columns do not fit either, so it falls back to Q8_0. The
// results load in llama.cpp, and Q8_0 continues a prompt as the original.
func TestRequantizeStories(t *testing.T) {
	q8, res8 := requant(t, "Q8_0")
	q4, res4 := requant(t, "Q4_0")
	want := map[string][2]gguf.TensorType{
		"token_embd.weight":     {gguf.Q8_0, gguf.Q4_0},
		"output.weight":         {gguf.Q8_0, gguf.Q8_0},
		"blk.0.attn_q.weight":   {gguf.Q8_0, gguf.Q4_0},
		"blk.3.attn_k.weight":   {gguf.Q8_0, gguf.Q4_0},
		"blk.4.ffn_up.weight":   {gguf.Q8_0, gguf.Q4_0},
		"blk.2.ffn_down.weight": {gguf.F16, gguf.F16},
		"blk.2.ffn_norm.weight": {gguf.F32, gguf.F32},
		"output_norm.weight":    {gguf.F32, gguf.F32},
	}
	for name, w := range want {
		if res8.Types[name] != w[0] || res4.Types[name] != w[1] {
			t.Errorf("%s: Q8_0 gave %s, Q4_0 gave %s; want %s and %s", name, res8.Types[name], res4.Types[name], w[0], w[1])
		}
	}
	if len(res4.Fallbacks) != 6 {
		t.Errorf("Q4_0 fallbacks %v", res4.Fallbacks)
	}
	if err := oracle.Available(); err != nil {
		t.Skip("llama.cpp oracle not available: ", err)
	}
	const n = 12
	prompt := "1,403,407,261,378,437" // <s> Once upon a time (ids < 512)
	out, err := oracle.Node("synth_check.mjs", fmt.Sprint(n), prompt, "--", stories(t), q8, q4)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 {
		t.Fatalf("oracle said %q", out)
	}
	var rs [3]checkResult
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &rs[i]); err != nil {
			t.Fatal(err)
		}
		if !rs[i].OK || len(rs[i].Tokens) != n {
			t.Fatalf("llama.cpp on file %d: %s", i, l)
		}
	}
	if fmt.Sprint(rs[1].Tokens) != fmt.Sprint(rs[0].Tokens) {
		t.Errorf("Q8_0 continues %v, the F32 original %v", rs[1].Tokens, rs[0].Tokens)
	}
}
