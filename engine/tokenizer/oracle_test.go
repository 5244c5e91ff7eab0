package tokenizer

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/internal/oracle"
)

// parityCase is one vocabulary checked against llama.cpp. pre and genName,
// when set, rewrite tokenizer.ggml.pre / general.name into a temporary
// copy, which is how presets without a shared vocabulary (glm4, olmo,
// youtu, default) and phi-3's strip rule get exercised on real merges.
// Such copies keep only the first `keep` tokens (and the merges among them)
// so that llama.cpp loads them quickly.
type parityCase struct {
	name, vocab, pre, genName string
	big                       int // bytes of the one large input, 0 for none
	keep                      int
	extra                     []string // control tokens to append (phi-3 needs <|endoftext|>)
}

var parityCases = []parityCase{
	{name: "llama-bpe", vocab: "llama-bpe", big: 1 << 20},
	{name: "qwen2", vocab: "qwen2", big: 1 << 20},
	{name: "qwen35", vocab: "qwen35", big: 1 << 20},
	{name: "deepseek-llm", vocab: "deepseek-llm", big: 1 << 20},
	{name: "deepseek-coder", vocab: "deepseek-coder", big: 1 << 20},
	{name: "llama-spm", vocab: "llama-spm", big: 1 << 20},
	{name: "gpt-2", vocab: "gpt-2", big: 1 << 20},
	{name: "youtu@qwen2", vocab: "qwen2", pre: "youtu", big: 1 << 15, keep: 30000},
	{name: "default@gpt-2", vocab: "gpt-2", pre: "default", big: 1 << 15, keep: 20000},
	{name: "glm4@llama-bpe", vocab: "llama-bpe", pre: "glm4", keep: 30000},
	{name: "olmo@gpt-2", vocab: "gpt-2", pre: "olmo", keep: 20000},
	{name: "phi-3@llama-spm", vocab: "llama-spm", genName: "Phi-3 mini", extra: []string{"<|endoftext|>", "<|user|>"}},
}

type oracleReply struct {
	BOS    int32        `json:"bos"`
	EOS    int32        `json:"eos"`
	EOT    int32        `json:"eot"`
	AddBOS bool         `json:"addBos"`
	Attrs  []uint16     `json:"attrs"`
	EOG    []int32      `json:"eog"`
	Tokens [][2][]int32 `json:"tokens"`
	Big    [][]int32    `json:"big"`
	Detok  [][2]string  `json:"detok"`
}

// openVariant loads a vocabulary's metadata, rewritten per the case and
// saved into dir when needed; it returns the file for the oracle.
func openVariant(t *testing.T, c parityCase, dir string) (*gguf.Metadata, string) {
	path := vocabPath(t, c.vocab)
	r, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	md := r.Metadata
	if c.pre == "" && c.genName == "" {
		return &md, path
	}
	w := gguf.NewWriter()
	w.Metadata.KVs = append([]gguf.KV(nil), md.KVs...)
	if c.keep > 0 {
		shrinkVocab(t, &w.Metadata, c.keep)
	}
	if len(c.extra) > 0 {
		appendControlTokens(t, &w.Metadata, c.extra)
	}
	if c.pre != "" {
		w.Metadata.Set("tokenizer.ggml.pre", gguf.ValStr(c.pre))
	}
	if c.genName != "" {
		w.Metadata.Set("general.name", gguf.ValStr(c.genName))
	}
	out := filepath.Join(dir, c.name+".gguf")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return &w.Metadata, out
}

// shrinkVocab keeps the first n tokens plus every special one, the merges
// whose parts and result are all kept, and renumbers nothing else: ids
// above n are remapped densely in order.
func shrinkVocab(t *testing.T, md *gguf.Metadata, n int) {
	toks, _ := md.Strings("tokenizer.ggml.tokens")
	types, _ := md.Ints("tokenizer.ggml.token_type")
	remap := make(map[int]int32)
	var nt []string
	var ntypes []int32
	for i, s := range toks {
		if i < n || types[i] != typeNormal {
			remap[i] = int32(len(nt))
			nt = append(nt, s)
			ntypes = append(ntypes, int32(types[i]))
		}
	}
	kept := make(map[string]bool, len(nt))
	for _, s := range nt {
		kept[s] = true
	}
	merges, _ := md.Strings("tokenizer.ggml.merges")
	var nm []string
	for _, m := range merges {
		a, b, ok := strings.Cut(m, " ")
		if ok && kept[a] && kept[b] && kept[a+b] {
			nm = append(nm, m)
		}
	}
	md.Set("tokenizer.ggml.tokens", gguf.ValStrs(nt))
	md.Set("tokenizer.ggml.token_type", gguf.ValI32s(ntypes))
	md.Set("tokenizer.ggml.merges", gguf.ValStrs(nm))
	md.Delete("tokenizer.ggml.scores")
	for _, k := range []string{"bos_token_id", "eos_token_id", "padding_token_id", "eot_token_id", "unknown_token_id"} {
		if v, ok := md.Uint("tokenizer.ggml." + k); ok {
			if id, ok := remap[int(v)]; ok {
				md.Set("tokenizer.ggml."+k, gguf.ValU32(uint32(id)))
			} else {
				md.Delete("tokenizer.ggml." + k)
			}
		}
	}
}

// appendControlTokens adds control tokens at the end of the vocabulary.
func appendControlTokens(t *testing.T, md *gguf.Metadata, extra []string) {
	toks, _ := md.Strings("tokenizer.ggml.tokens")
	types, _ := md.Ints("tokenizer.ggml.token_type")
	scores, _ := md.Float32s("tokenizer.ggml.scores")
	nt := append([]string(nil), toks...)
	var ntypes []int32
	for _, v := range types {
		ntypes = append(ntypes, int32(v))
	}
	ns := append([]float32(nil), scores...)
	for _, s := range extra {
		nt = append(nt, s)
		ntypes = append(ntypes, typeControl)
		ns = append(ns, 0)
	}
	md.Set("tokenizer.ggml.tokens", gguf.ValStrs(nt))
	md.Set("tokenizer.ggml.token_type", gguf.ValI32s(ntypes))
	md.Set("tokenizer.ggml.scores", gguf.ValF32s(ns))
}

func seedOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// parityRun is one case's inputs and our answers, made while llama.cpp
// works on the same inputs.
type parityRun struct {
	c           parityCase
	tk          *Tokenizer
	md          *gguf.Metadata
	texts, big  []string
	detok       [][]int32
	plain, spec [][]int32
	bigIDs      [][]int32
	dec         [][2]string
	model       string // files handed to the oracle
	request     string
	reply       string
}

// prepareParity loads the tokenizer and writes the oracle's request.
func prepareParity(c parityCase, md *gguf.Metadata, model, dir string, i int) (*parityRun, error) {
	tk, err := FromGGUF(md)
	if err != nil {
		return nil, err
	}
	p := &parityRun{c: c, tk: tk, md: md, model: model}
	r := rand.New(rand.NewPCG(seedOf(c.name), 7))
	var specials []string
	for _, id := range tk.special {
		specials = append(specials, tk.texts[id])
	}
	p.texts = append([]string(nil), trickyTexts...)
	for i := 0; i < 150; i++ {
		p.texts = append(p.texts, randomText(r, 1+r.IntN(120), specials))
	}
	if c.big > 0 {
		p.big = append(p.big, bigText(r, c.big, specials))
	}
	// Detokenize our own encodings and random id runs whose pieces are
	// complete UTF-8 (llama.cpp's output reaches us through a JavaScript
	// string, which cannot carry invalid bytes).
	for _, s := range p.texts[:60] {
		p.detok = append(p.detok, tk.Encode(s, true, true))
	}
	for i := 0; i < 100; i++ {
		ids := []int32{}
		for k := 1 + r.IntN(30); k > 0; k-- {
			id := int32(r.IntN(tk.VocabSize()))
			if k%5 == 0 && len(tk.special) > 0 {
				id = tk.special[r.IntN(len(tk.special))]
			}
			if utf8.ValidString(tk.Piece(id)) {
				ids = append(ids, id)
			}
		}
		p.detok = append(p.detok, ids)
	}
	req, err := json.Marshal(map[string]any{"texts": p.texts, "big": p.big, "detok": p.detok})
	if err != nil {
		return nil, err
	}
	p.request = filepath.Join(dir, fmt.Sprintf("req%d.json", i))
	p.reply = filepath.Join(dir, fmt.Sprintf("reply%d.json", i))
	return p, os.WriteFile(p.request, req, 0o644)
}

// TestOracleParity compares everything observable with llama.cpp itself:
// special ids, add_bos, every token's attributes and EOG flag, the ids of
// tricky and random texts with and without special-token parsing, one large
// mixed input, and detokenization with and without special tokens.
func TestOracleParity(t *testing.T) {
	if err := oracle.Available(); err != nil {
		t.Skipf("llama.cpp oracle unavailable: %v", err)
	}
	dir := t.TempDir()
	type job struct {
		Model   string `json:"model"`
		Request string `json:"request"`
		Reply   string `json:"reply"`
	}
	// Prepare the cases two at a time (loading a vocabulary is the slow part).
	runs := make([]*parityRun, len(parityCases))
	errs := make([]error, len(parityCases))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, c := range parityCases {
		md, path := openVariant(t, c, dir)
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			runs[i], errs[i] = prepareParity(c, md, path, dir, i)
		}()
	}
	wg.Wait()
	var jobs []job
	for i, p := range runs {
		if errs[i] != nil {
			t.Fatalf("%s: %v", parityCases[i].name, errs[i])
		}
		jobs = append(jobs, job{p.model, p.request, p.reply})
	}
	jobsPath := filepath.Join(dir, "jobs.json")
	jb, _ := json.Marshal(jobs)
	if err := os.WriteFile(jobsPath, jb, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := oracle.Node("tokenizer_parity.mjs", jobsPath)
		done <- err
	}()
	for _, p := range runs {
		for _, s := range p.texts {
			p.plain = append(p.plain, p.tk.Encode(s, false, false))
			p.spec = append(p.spec, p.tk.Encode(s, false, true))
		}
		for _, s := range p.big {
			p.bigIDs = append(p.bigIDs, p.tk.Encode(s, false, true))
		}
		for _, ids := range p.detok {
			p.dec = append(p.dec, [2]string{p.tk.Detokenize(ids, false, false), p.tk.Detokenize(ids, false, true)})
		}
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, p := range runs {
		t.Run(p.c.name, func(t *testing.T) {
			raw, err := os.ReadFile(p.reply)
			if err != nil {
				t.Fatal(err)
			}
			var want oracleReply
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatalf("oracle reply: %v", err)
			}
			compareParity(t, p, want)
		})
	}
}

func compareParity(t *testing.T, p *parityRun, want oracleReply) {
	tk := p.tk
	// Where the file names no EOT and several tokens qualify, llama.cpp takes
	// whichever its hash map yields first; we take the first in its list.
	eotOK := tk.EOT() == want.EOT
	if !eotOK && !p.md.Has("tokenizer.ggml.eot_token_id") && want.EOT >= 0 {
		eotOK = slices.Contains(eotTexts, tk.TokenText(tk.EOT())) && slices.Contains(eotTexts, tk.TokenText(want.EOT))
		t.Logf("EOT: ours %d %q, llama.cpp %d %q (both qualify)", tk.EOT(), tk.TokenText(tk.EOT()), want.EOT, tk.TokenText(want.EOT))
	}
	if tk.BOS() != want.BOS || tk.EOS() != want.EOS || !eotOK || tk.AddBOS() != want.AddBOS {
		t.Errorf("special ids: got bos %d eos %d eot %d add_bos %v, llama.cpp bos %d eos %d eot %d add_bos %v",
			tk.BOS(), tk.EOS(), tk.EOT(), tk.AddBOS(), want.BOS, want.EOS, want.EOT, want.AddBOS)
	}
	if len(want.Attrs) != tk.VocabSize() {
		t.Fatalf("vocab size %d, llama.cpp %d", tk.VocabSize(), len(want.Attrs))
	}
	bad := 0
	for id, a := range want.Attrs {
		if tk.attrs[id] != a && bad < 5 {
			bad++
			t.Errorf("token %d %q: attributes %#x, llama.cpp %#x", id, tk.texts[id], tk.attrs[id], a)
		}
	}
	if got := tk.EOGs(); fmt.Sprint(got) != fmt.Sprint(want.EOG) {
		t.Errorf("EOG tokens %v, llama.cpp %v", got, want.EOG)
	}
	mismatch, compared := 0, 0
	report := func(what string, text string, got, exp []int32) {
		compared += len(exp)
		if !equalIDs(got, exp) {
			mismatch++
			if mismatch <= 8 {
				t.Errorf("%s %q:\n got %v\nwant %v", what, trunc(text), trunc(fmt.Sprint(got)), trunc(fmt.Sprint(exp)))
			}
		}
	}
	for i, s := range p.texts {
		report("plain", s, p.plain[i], want.Tokens[i][0])
		report("special", s, p.spec[i], want.Tokens[i][1])
	}
	for i, s := range p.big {
		report("large", s, p.bigIDs[i], want.Big[i])
	}
	dbad, dn := 0, 0
	for i, ids := range p.detok {
		for k := range 2 {
			got := p.dec[i][k]
			if !utf8.ValidString(got) {
				continue
			}
			dn++
			if got != want.Detok[i][k] {
				dbad++
				if dbad <= 5 {
					t.Errorf("detokenize(special=%v) %v:\n got %q\nwant %q", k == 1, ids, got, want.Detok[i][k])
				}
			}
		}
	}
	t.Logf("%d encodings (%d KB in one large input, %d ids in all) compared, %d differ; %d detokenizations, %d differ",
		2*len(p.texts)+len(p.big), p.c.big>>10, compared, mismatch, dn, dbad)
}

func trunc(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}
