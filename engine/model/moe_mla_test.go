package model

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/internal/oracle"
)

// writeTiny writes a synthetic model into dir and returns its path.
func writeTiny(t testing.TB, dir, shape string, arch synth.Arch, typ string, seed uint64) string {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("%s-%s-%s.gguf", strings.ReplaceAll(shape, ":", "_"), arch, typ))
	if err := synth.WriteFile(path, shape, arch, typ, seed); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeTokens(t testing.TB, buf gpu.Buffer, ids []int32) {
	t.Helper()
	b := make([]byte, 4*len(ids))
	for i, id := range ids {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(id))
	}
	if err := buf.Write(0, b); err != nil {
		t.Fatal(err)
	}
}

func readI32(t testing.TB, buf gpu.Buffer, n int) []int32 {
	t.Helper()
	b := make([]byte, 4*n)
	if err := buf.Read(0, b); err != nil {
		t.Fatal(err)
	}
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// emberGreedy prefills the prompt in one step and then decodes n tokens
// one at a time, taking the argmax each time. It also returns the logits
// each token was chosen from. With forced, step k feeds forced[k] instead
// of its own choice (teacher forcing), for n = len(forced)+1 steps.
func emberGreedy(t testing.TB, path string, prompt []int32, n int, forced ...int32) ([]int32, [][]float32) {
	t.Helper()
	r, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	be := cpu.New(2)
	defer be.Close()
	m, err := Load(r, be)
	if err != nil {
		t.Fatal(err)
	}
	cache, err := m.NewCache(len(prompt) + n + 1)
	if err != nil {
		t.Fatal(err)
	}
	pre, err := m.NewStep(cache, len(prompt))
	if err != nil {
		t.Fatal(err)
	}
	dec, err := m.NewStep(cache, 1)
	if err != nil {
		t.Fatal(err)
	}
	var out []int32
	var logits [][]float32
	take := func(st *Step) {
		out = append(out, readI32(t, st.Next, 1)[0])
		logits = append(logits, readF32(t, st.Logits, m.Config.Vocab))
	}
	writeTokens(t, pre.Tokens, prompt)
	if err := pre.Program.Run(gpu.Params{Pos: 0}); err != nil {
		t.Fatal(err)
	}
	take(pre)
	for pos := len(prompt); len(out) < n; pos++ {
		next := out[len(out)-1:]
		if forced != nil {
			next = forced[len(out)-1 : len(out)]
		}
		writeTokens(t, dec.Tokens, next)
		if err := dec.Program.Run(gpu.Params{Pos: pos}); err != nil {
			t.Fatal(err)
		}
		take(dec)
	}
	return out, logits
}

func readF32(t testing.TB, buf gpu.Buffer, n int) []float32 {
	t.Helper()
	b := make([]byte, 4*n)
	if err := buf.Read(0, b); err != nil {
		t.Fatal(err)
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func joinIDs(ids []int32, sep string) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	return strings.Join(s, sep)
}

// TestMoEMLAGreedyParity: the tiny mixture-of-experts and latent-attention
// layouts give llama.cpp's 64 greedy tokens: each layout in one weight
// type (make test), or every layout in every type (EMBER_PARITY=all, make
// parity).
func TestMoEMLAGreedyParity(t *testing.T) {
	if err := oracle.Available(); err != nil {
		t.Skip(err)
	}
	compareCases(t, t.TempDir(), parityCases("moe-mla"), 2)
}

// routeIDs builds a step of the given tokens, exposes every Route op's
// chosen experts as a readable buffer, runs it and returns them per layer
// ([layer][token][slot]).
func routeIDs(t *testing.T, path string, tokens []int32) [][][]int32 {
	t.Helper()
	r, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	be := cpu.New(2)
	defer be.Close()
	m, err := Load(r, be)
	if err != nil {
		t.Fatal(err)
	}
	cache, err := m.NewCache(len(tokens))
	if err != nil {
		t.Fatal(err)
	}
	T := len(tokens)
	g := gpu.NewGraph("route-probe", T)
	b := &builder{g: g, c: m.Config, cache: cache, T: T, bound: map[gpu.Buffer]*gpu.Tensor{}}
	logits, _ := be.Alloc("logits", gguf.F32, gpu.Shape4(m.Config.Vocab))
	tok, _ := be.Alloc("tokens", gguf.I32, gpu.Shape4(T))
	b.logits = g.Bind("logits", logits)
	m.net.build(b, g.Bind("tokens", tok))
	var bufs []gpu.Buffer
	for _, op := range g.Ops {
		rt, ok := op.(*gpu.Route)
		if !ok {
			continue
		}
		// turn the activation into host-visible memory; every op using
		// the tensor sees the change since they share the pointer
		buf, err := be.Alloc(rt.IDs.Name, gguf.I32, rt.IDs.Shape)
		if err != nil {
			t.Fatal(err)
		}
		rt.IDs.Kind, rt.IDs.Buf = gpu.External, buf
		bufs = append(bufs, buf)
	}
	prog, err := be.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	writeTokens(t, tok, tokens)
	if err := prog.Run(gpu.Params{Pos: 0}); err != nil {
		t.Fatal(err)
	}
	K := m.Config.ExpertsUsed
	var out [][][]int32
	for _, buf := range bufs {
		// The last layer routes only the last token (its other rows feed
		// nothing, so llama.cpp skips them, and ember does too).
		rows := buf.Shape()[1]
		flat := readI32(t, buf, K*rows)
		var layer [][]int32
		for i := 0; i < rows; i++ {
			layer = append(layer, flat[i*K:(i+1)*K])
		}
		out = append(out, layer)
	}
	return out
}

// TestMoERoutes checks that tiny MoE models really route: each token picks
// K distinct valid experts, and different tokens pick different experts.
func TestMoERoutes(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(3))
	tokens := make([]int32, 24)
	for i := range tokens {
		tokens[i] = int32(rng.Intn(256))
	}
	for _, s := range []struct {
		shape  string
		arch   synth.Arch
		layers int // expert layers
	}{{"tiny", synth.Qwen3MoE, 2}, {"tiny", synth.OLMoE, 2}, {"tiny", synth.DeepSeek2, 2}, {"tiny-glm", "", 2}} {
		path := writeTiny(t, dir, s.shape, s.arch, "Q8_0", 11)
		ids := routeIDs(t, path, tokens)
		if len(ids) != s.layers {
			t.Fatalf("%s %s: %d routing ops, want %d", s.shape, s.arch, len(ids), s.layers)
		}
		cfg, _ := synth.Preset(s.shape, s.arch)
		for l, layer := range ids {
			sets := map[string]bool{}
			used := map[int32]bool{}
			for i, chosen := range layer {
				seen := map[int32]bool{}
				for _, e := range chosen {
					if e < 0 || int(e) >= cfg.Experts || seen[e] {
						t.Fatalf("%s %s layer %d token %d: bad expert choice %v of %d experts", s.shape, s.arch, l, i, chosen, cfg.Experts)
					}
					seen[e] = true
					used[e] = true
				}
				sorted := append([]int32(nil), chosen...)
				for a := range sorted {
					for b := a + 1; b < len(sorted); b++ {
						if sorted[b] < sorted[a] {
							sorted[a], sorted[b] = sorted[b], sorted[a]
						}
					}
				}
				sets[fmt.Sprint(sorted)] = true
			}
			if len(layer) == 1 {
				continue // the last layer's one token
			}
			if len(sets) < 3 || len(used) <= cfg.ExpertsUsed {
				t.Errorf("%s %s layer %d: %d distinct expert sets using %d experts over %d tokens: not routing",
					s.shape, s.arch, l, len(sets), len(used), len(tokens))
			}
			t.Logf("%s %s layer %d: %d distinct expert sets, %d of %d experts used", s.shape, s.arch, l, len(sets), len(used), cfg.Experts)
		}
	}
}

// TestDeepSeek2LegacyKVBRefused: files with the single attn_kv_b get a
// clear error rather than a wrong answer.
func TestDeepSeek2LegacyKVBRefused(t *testing.T) {
	path := writeTiny(t, t.TempDir(), "tiny-kvb", "", "F32", 1)
	r, err := gguf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	be := cpu.New(1)
	defer be.Close()
	_, err = Load(r, be)
	if err == nil || !strings.Contains(err.Error(), "attn_kv_b") {
		t.Fatalf("want an error naming attn_kv_b, got %v", err)
	}
}
