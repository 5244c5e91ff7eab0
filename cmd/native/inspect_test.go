package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

const inspectStories = "../../../shared/models/stories260K.gguf"

func inspectNeedStories(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(inspectStories); errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s is absent (it comes with ../shared)", inspectStories)
	}
}

func inspectRun(t *testing.T, args ...string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := inspectCmd(&buf, args); err != nil {
		t.Fatalf("inspect %v: %v", args, err)
	}
	return buf.String()
}

// inspectExpect is what the tests know about a file from reading it
// through the gguf package directly.
type inspectExpect struct {
	params, bytes uint64
	tokens        []string
}

func inspectExpected(t *testing.T, path string) inspectExpect {
	t.Helper()
	r, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var e inspectExpect
	for _, ti := range r.Tensors {
		n := uint64(1)
		for _, d := range ti.Dims {
			n *= d
		}
		e.params += n
		e.bytes += ti.Size
	}
	e.tokens, _ = r.Metadata.Strings("tokenizer.ggml.tokens")
	return e
}

func TestInspectStoriesText(t *testing.T) {
	inspectNeedStories(t)
	out := inspectRun(t, inspectStories)
	want := inspectExpected(t, inspectStories)
	for _, re := range []string{
		`(?m)^architecture\s+llama$`,
		`(?m)^format\s+GGUF v3, alignment 32, tensor data at offset \d+$`,
		`(?m)^metadata \(19 keys\)$`,
		`(?m)^tensors \(48\)$`,
		`(?m)^  tensors\s+48$`,
		fmt.Sprintf(`(?m)^  parameters\s+293K \(%d\)$`, want.params),
		fmt.Sprintf(`(?m)^  data\s+1\.12 MiB \(%d bytes\)$`, want.bytes),
		fmt.Sprintf(`(?m)^  F32\s+1\.12 MiB in 48 tensors`),
		`(?m)^  tokenizer\.ggml\.tokens\s+arr\s+\[str x 512\] "<unk>", "<s>", "</s>", .*\.\.\.$`,
		`(?m)^  general\.architecture\s+str\s+"llama"$`,
		`(?m)^  llama\.attention\.layer_norm_rms_epsilon\s+f32\s+1e-05$`,
		`(?m)^  token_embd\.weight\s+F32\s+64 x 512\s+131072\s+0$`,
		`(?m)^  model\s+llama$`,
		`(?m)^  vocab size\s+512$`,
		`(?m)^  bos\s+1 "<s>"$`,
		`(?m)^  eos\s+2 "</s>"$`,
		`(?m)^  add_bos\s+\(not set\)$`,
		`(?m)^  chat template\s+none$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output does not match %s", re)
		}
	}
	rows := regexp.MustCompile(`(?m)^  \S+\.weight\s+F32\s+[\d x]+\s+\d+\s+\d+$`).FindAllString(out, -1)
	if len(rows) != 48 {
		t.Errorf("%d tensor rows, want 48", len(rows))
	}
	if t.Failed() {
		t.Log(out)
	}
}

func TestInspectStoriesJSON(t *testing.T) {
	inspectNeedStories(t)
	want := inspectExpected(t, inspectStories)
	out := inspectRun(t, inspectStories, "--json") // flags after the file
	if out2 := inspectRun(t, "-json", inspectStories); out2 != out {
		t.Error("--json before and after the file give different output")
	}
	var rep struct {
		Architecture string `json:"architecture"`
		Version      int    `json:"version"`
		Metadata     map[string]struct {
			Type      string `json:"type"`
			Elem      string `json:"elem"`
			Len       int    `json:"len"`
			Value     any    `json:"value"`
			Head      []any  `json:"head"`
			Truncated bool   `json:"truncated"`
		} `json:"metadata"`
		Tensors []struct {
			Name  string   `json:"name"`
			Type  string   `json:"type"`
			Shape []uint64 `json:"shape"`
			Bytes uint64   `json:"bytes"`
		} `json:"tensors"`
		Totals struct {
			Tensors    int    `json:"tensors"`
			Parameters uint64 `json:"parameters"`
			DataBytes  uint64 `json:"data_bytes"`
		} `json:"totals"`
		Tokenizer struct {
			Model     string `json:"model"`
			VocabSize int    `json:"vocab_size"`
			Special   []struct {
				Role string `json:"role"`
				ID   int64  `json:"id"`
				Text string `json:"text"`
			} `json:"special"`
			ChatTemplate bool `json:"chat_template"`
		} `json:"tokenizer"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not one JSON object: %v", err)
	}
	if rep.Architecture != "llama" || rep.Version != 3 {
		t.Errorf("architecture %q version %d", rep.Architecture, rep.Version)
	}
	if len(rep.Tensors) != 48 || rep.Totals.Tensors != 48 {
		t.Errorf("%d tensors listed, totals say %d; want 48", len(rep.Tensors), rep.Totals.Tensors)
	}
	var params, nbytes uint64
	for _, tr := range rep.Tensors {
		n := uint64(1)
		for _, d := range tr.Shape {
			n *= d
		}
		params += n
		nbytes += tr.Bytes
	}
	if params != want.params || rep.Totals.Parameters != want.params || nbytes != want.bytes || rep.Totals.DataBytes != want.bytes {
		t.Errorf("parameters %d/%d, bytes %d/%d; want %d and %d", params, rep.Totals.Parameters, nbytes, rep.Totals.DataBytes, want.params, want.bytes)
	}
	if v := rep.Metadata["general.architecture"]; v.Type != "str" || v.Value != "llama" {
		t.Errorf("general.architecture: %+v", v)
	}
	if v := rep.Metadata["llama.block_count"]; v.Type != "u32" || v.Value != 5.0 {
		t.Errorf("llama.block_count: %+v", v)
	}
	toks := rep.Metadata["tokenizer.ggml.tokens"]
	if toks.Type != "arr" || toks.Elem != "str" || toks.Len != 512 || !toks.Truncated || len(toks.Head) != 8 {
		t.Errorf("tokens: %+v", toks)
	}
	for i, h := range toks.Head {
		if h != want.tokens[i] {
			t.Errorf("token %d: %v, want %q", i, h, want.tokens[i])
		}
	}
	if rep.Tokenizer.Model != "llama" || rep.Tokenizer.VocabSize != 512 || rep.Tokenizer.ChatTemplate {
		t.Errorf("tokenizer: %+v", rep.Tokenizer)
	}
	found := false
	for _, sp := range rep.Tokenizer.Special {
		if sp.Role == "bos" {
			found = sp.ID == 1 && sp.Text == "<s>"
		}
	}
	if !found {
		t.Errorf("bos not reported as 1 <s>: %+v", rep.Tokenizer.Special)
	}
}

// TestInspectShortensValues builds a file with the values that need
// shortening: a long chat template, big arrays, nested and empty arrays,
// and floats JSON cannot hold.
func TestInspectShortensValues(t *testing.T) {
	template := strings.Repeat("{% for message in messages %}", 170) + "TAIL-MARKER"
	vocab := make([]string, 2000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("tok%d", i*7919%2000)
	}
	w := gguf.NewWriter()
	w.Alignment = 64
	md := &w.Metadata
	md.Set("general.architecture", gguf.ValStr("qwen3"))
	md.Set("tokenizer.chat_template", gguf.ValStr(template))
	md.Set("tokenizer.ggml.model", gguf.ValStr("gpt2"))
	md.Set("tokenizer.ggml.pre", gguf.ValStr("qwen2"))
	md.Set("tokenizer.ggml.tokens", gguf.ValStrs(vocab))
	md.Set("tokenizer.ggml.merges", gguf.ValStrs(vocab[:1500]))
	md.Set("tokenizer.ggml.eot_token_id", gguf.ValU32(1234))
	md.Set("tokenizer.ggml.add_bos_token", gguf.ValBool(false))
	md.Set("odd.floats", gguf.ValF32s([]float32{float32(math.NaN()), float32(math.Inf(-1)), 0.5}))
	md.Set("odd.nan", gguf.ValF64(math.NaN()))
	md.Set("odd.empty", gguf.ValArray(gguf.TypeUint16, []uint16{}))
	md.Set("odd.nested", gguf.ValArray(gguf.TypeArray, []*gguf.Array{{Elem: gguf.TypeInt8, V: []int8{-1, 2}}, {Elem: gguf.TypeString, V: []string{}}}))
	w.AddTensorBytes("blk.0.ffn_down.weight", gguf.Q8_0, []uint64{64, 3}, make([]byte, 2*34*3))
	w.AddTensorBytes("output_norm.weight", gguf.F32, []uint64{64}, make([]byte, 256))
	path := filepath.Join(t.TempDir(), "odd.gguf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	f.Close()

	out := inspectRun(t, path)
	for _, re := range []string{
		`(?m)^format\s+GGUF v3, alignment 64,`,
		`(?m)^  tokenizer\.chat_template\s+str\s+"\{% for message in messages %\}.*"\.\.\. \(4941 bytes\)$`,
		`(?m)^  tokenizer\.ggml\.tokens\s+arr\s+\[str x 2000\] "tok0", "tok1919", "tok1838", .*, \.\.\.$`,
		`(?m)^  odd\.floats\s+arr\s+\[f32 x 3\] NaN, -Inf, 0\.5$`,
		`(?m)^  odd\.empty\s+arr\s+\[u16 x 0\]$`,
		`(?m)^  odd\.nested\s+arr\s+\[arr x 2\] \[i8 x 2\] -1, 2, \[str x 0\]$`,
		`(?m)^  Q8_0\s+204 B in 1 tensors, 192 parameters$`,
		fmt.Sprintf(`(?m)^  eot\s+1234 "%s"$`, vocab[1234]),
		`(?m)^  merges\s+1500$`,
		`(?m)^  pre\s+qwen2$`,
		`(?m)^  add_bos\s+false$`,
		`(?m)^  chat template\s+present \(4941 bytes\)$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("output does not match %s", re)
		}
	}
	if strings.Contains(out, "TAIL-MARKER") || strings.Contains(out, "tok1999") {
		t.Error("long values were printed in full")
	}
	if t.Failed() {
		t.Log(out)
	}

	js := inspectRun(t, "--json", path)
	var rep map[string]any
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatalf("JSON with NaN values does not parse: %v", err)
	}
	md2 := rep["metadata"].(map[string]any)
	tmpl := md2["tokenizer.chat_template"].(map[string]any)
	if tmpl["len"] != 4941.0 || tmpl["truncated"] != true || len(tmpl["value"].(string)) > 256 {
		t.Errorf("chat template in JSON: len %v truncated %v", tmpl["len"], tmpl["truncated"])
	}
	floats := md2["odd.floats"].(map[string]any)["head"].([]any)
	if floats[0] != "NaN" || floats[1] != "-Inf" || floats[2] != 0.5 {
		t.Errorf("floats in JSON: %v", floats)
	}
	nested := md2["odd.nested"].(map[string]any)["head"].([]any)
	if first := nested[0].(map[string]any); first["elem"] != "i8" || first["len"] != 2.0 {
		t.Errorf("nested array in JSON: %v", nested)
	}
	if n := len(md2["tokenizer.ggml.tokens"].(map[string]any)["head"].([]any)); n != 8 {
		t.Errorf("JSON keeps %d tokens, want 8", n)
	}
}

func TestInspectErrors(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte("hello, not a model"), 0o644)
	empty := filepath.Join(dir, "empty.gguf")
	os.WriteFile(empty, nil, 0o644)
	broken := filepath.Join(dir, "broken.gguf")
	os.WriteFile(broken, []byte("GGUF\x03\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff"), 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(dir, "missing.gguf")}, "no such file or directory"},
		{[]string{text}, "notes.txt is not a GGUF file (it does not start with \"GGUF\")"},
		{[]string{empty}, "empty.gguf is not a GGUF file (it is shorter than the 4-byte magic)"},
		{[]string{dir}, "is a directory, not a GGUF file"},
		{[]string{broken}, "broken.gguf: gguf: at offset 8: tensor count 18446744073709551615 exceeds the limit"},
		{nil, "want one GGUF file, got 0 arguments"},
		{[]string{text, text}, "want one GGUF file, got 2 arguments"},
	} {
		var buf bytes.Buffer
		err := inspectCmd(&buf, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("inspect %v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestInspectHumanCount(t *testing.T) {
	for n, want := range map[uint64]string{
		0: "0", 950: "950", 999: "999", 1000: "1.00K", 12_345: "12.3K", 292_800: "293K",
		999_999: "1.00M", 1_235_814_400: "1.24B", 7_000_000_000: "7.00B", 671_000_000_000: "671B",
	} {
		if got := inspectHumanCount(n); got != want {
			t.Errorf("inspectHumanCount(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[uint64]string{100: "100 B", 1536: "1.50 KiB", 1171200: "1.12 MiB", 1 << 30: "1.00 GiB"} {
		if got := inspectHumanBytes(n); got != want {
			t.Errorf("inspectHumanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
