//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/gputest"
	"github.com/emberllm/ember/gpu/webgpu"
)

// TestBatchDecodeMatchesAlone: on WebGPU too, sequences decoded together
// in batch steps (prompts prefilled into slots of one shared cache, a
// padding column beside them, columns rotating) get each step's logits bit
// for bit as each gets decoding alone: a decode batch takes the kernels
// that sum each token as a step of that token does (the matvecs, the
// two-pass attention; matmul_tokens shares the weights' loads and decoding
// among the sequences, not their sums), and the fused decode kernels of a lone token sum
// as the kernels they stand in for. Every architecture's tiny model.
func TestBatchDecodeMatchesAlone(t *testing.T) {
	dir := t.TempDir()
	prompts := [][]int32{{1, 72, 101, 108, 108, 111}, {1, 33}, {1, 50, 60, 70, 80, 90}}
	const n = 4
	be := open(t)
	defer be.Close()
	type tc struct {
		arch       synth.Arch
		shape, typ string
	}
	var cases []tc
	for _, a := range synth.Archs {
		cases = append(cases, tc{a, "tiny", "Q8_0"})
	}
	cases = append(cases, tc{synth.Llama, "tiny", "Q4_K"}, tc{synth.Llama, "tiny", "Q4_K_M"}, tc{synth.Llama, "tiny", "Q6_K"})
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s-%s-%s", c.shape, c.arch, c.typ), func(t *testing.T) {
			path := writeTiny(t, dir, c.shape, c.arch, c.typ, 5)
			m := loadModel(t, be, path)
			d, err := gputest.BatchMatchesSolo(m, prompts, n, 4)
			if err != nil {
				t.Fatal(err)
			}
			if d != "" {
				t.Fatal(d)
			}
		})
	}
	// Batches of more sequences than one workgroup takes: 11 tokens (as
	// serving's top bucket of 11 slots) go to matmul_tokens_wide
	// (wideTokens, 8 a workgroup), its second group partly filled; 19 to
	// matmul_tokens_tall (four rows a workgroup; every product of the
	// tiny model, whose grids are below tallGroups), three token groups
	// of a row group side by side, the last partly filled, its 32 sums a
	// thread reduced with subgroups and without.
	many := func(seqs int) [][]int32 {
		var p [][]int32
		for i := range seqs {
			p = append(p, []int32{1, int32(40 + 7*i), int32(90 + i)})
		}
		return p
	}
	batched := func(t *testing.T, be gpu.Backend, seqs int) {
		m := loadModel(t, be, writeTiny(t, dir, "tiny", synth.Llama, "Q4_0", 5))
		d, err := gputest.BatchMatchesSolo(m, many(seqs), 3, seqs)
		if err != nil {
			t.Fatal(err)
		}
		if d != "" {
			t.Fatal(d)
		}
	}
	t.Run("tiny-llama-Q4_0-11", func(t *testing.T) { batched(t, be, 11) })
	t.Run("tiny-llama-Q4_0-19", func(t *testing.T) {
		defer webgpu.SetTallGroups(1)()
		bothSubgroupModes(t, func(be gpu.Backend, mode string) {
			t.Run(mode, func(t *testing.T) { batched(t, be, 19) })
		})
	})
}

// TestBatchScoresFollowSlots: a batch step over a cache of many slots
// launches the scores pass for one slot's rows a token and head (two
// chunks of 16 for slots of 20 positions), not for every row of the
// cache: serving's cache of 64 slots launched 64 times the workgroups,
// nearly all of them idle, and the batch steps ran about twice as long.
// The pass is attention_step, the ropes and cache stores in it.
func TestBatchScoresFollowSlots(t *testing.T) {
	be := open(t)
	defer be.Close()
	m := loadModel(t, be, writeTiny(t, t.TempDir(), "tiny", synth.Llama, "Q8_0", 5))
	const ctx, slots, batch = 20, 16, 4
	cache, err := m.NewCacheRows(ctx, ctx*slots)
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.NewBatchStep(cache, batch, 0)
	if err != nil {
		t.Fatal(err)
	}
	var grids []int
	separate := 0
	webgpu.KeepKernels(st.Program, func(name string, groups int) bool {
		switch name {
		case "attention_scores", "attention_step":
			grids = append(grids, groups)
		case "rope", "kv_store":
			separate++
		}
		return true
	})
	// The batch's ropes and cache stores are attention_step's work, as a
	// lone token's are.
	if separate > 0 {
		t.Errorf("%d rope and kv_store dispatches beside the scores passes, want none", separate)
	}
	if len(grids) != m.Config.Layers {
		t.Fatalf("%d scores passes (attention_scores, attention_step), want one a layer (%d)", len(grids), m.Config.Layers)
	}
	want := m.Config.Heads * batch * 2
	for l, g := range grids {
		if g != want {
			t.Fatalf("layer %d: the scores pass has %d workgroups, want %d (heads x tokens x chunks of one %d-row slot)", l, g, want, ctx)
		}
	}
}

// TestScoreSpreadSameBits: the scores passes (attention_scores of a batch,
// attention_step of a lone llama token, mla_step of a lone DeepSeek token)
// give the same logits, bit for bit, whether each workgroup scores one
// chunk of 16 cache rows or, with one workgroup a score row, every chunk
// of it in turn: long prompts (three chunks and more), decoded alone and
// in a batch, with the default spread and with scoreGroups = 1.
func TestScoreSpreadSameBits(t *testing.T) {
	be := open(t)
	defer be.Close()
	dir := t.TempDir()
	var prompts [][]int32
	for i := range 3 {
		p := []int32{1}
		for j := range 36 + 5*i {
			p = append(p, int32(3+(7*j+11*i)%200))
		}
		prompts = append(prompts, p)
	}
	for _, a := range []synth.Arch{synth.Llama, synth.DeepSeek2} {
		t.Run(string(a), func(t *testing.T) {
			m := loadModel(t, be, writeTiny(t, dir, "tiny", a, "Q8_0", 5))
			decode := func() (solo, batch []gputest.Decoded) {
				solo, err := gputest.SoloDecode(m, prompts, 3)
				if err != nil {
					t.Fatal(err)
				}
				batch, err = gputest.BatchDecode(m, prompts, 3, 4)
				if err != nil {
					t.Fatal(err)
				}
				return solo, batch
			}
			solo, batch := decode()
			restore := webgpu.SetScoreGroups(1)
			solo1, batch1 := decode()
			restore()
			for i := range prompts {
				if d := gputest.SameDecoded(solo1[i], solo[i]); d != "" {
					t.Fatalf("alone, sequence %d, one workgroup a row: %s", i, d)
				}
				if d := gputest.SameDecoded(batch1[i], batch[i]); d != "" {
					t.Fatalf("batched, sequence %d, one workgroup a row: %s", i, d)
				}
			}
		})
	}
}

// TestBatchScoresInGroups: a batch whose attention scores do not fit one
// storage binding (capped here at 8 KiB: eleven sequences over slots of
// 44 positions need 48 score rows a head and token) takes its tokens a
// group at a time through the two passes, and every sequence still gets
// the logits of decoding alone, bit for bit; a batch that large once took
// attention.wgsl's one pass, whose sums are not a lone step's.
func TestBatchScoresInGroups(t *testing.T) {
	be, err := webgpu.Open(webgpu.Options{MaxBinding: 8 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	m := loadModel(t, be, writeTiny(t, t.TempDir(), "tiny", synth.Llama, "Q8_0", 5))
	var many [][]int32
	for i := range 11 {
		p := []int32{1}
		for j := range 39 {
			p = append(p, int32(3+(5*j+13*i)%200))
		}
		many = append(many, p)
	}
	const n = 4
	ctx := len(many[0]) + n + 1
	rowBytes := (ctx + 15) / 16 * 16 * m.Config.Heads * 4
	if rowBytes > 8<<10 || 11*rowBytes <= 8<<10 {
		t.Fatalf("scores of %d bytes a token: want one token to fit 8 KiB and eleven not", rowBytes)
	}
	d, err := gputest.BatchMatchesSolo(m, many, n, 11)
	if err != nil {
		t.Fatal(err)
	}
	if d != "" {
		t.Fatal(d)
	}
	cache, err := m.NewCacheRows(ctx, ctx*12)
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.NewBatchStep(cache, 11, 0)
	if err != nil {
		t.Fatal(err)
	}
	passes, fused := 0, 0
	webgpu.KeepKernels(st.Program, func(name string, groups int) bool {
		switch name {
		case "attention_scores":
			passes++
		case "attention_step", "attention":
			fused++
		}
		return true
	})
	if fused > 0 || passes < 2*m.Config.Layers {
		t.Fatalf("%d scores passes and %d attention_step or one-pass dispatches for %d layers: want the tokens in groups, two passes or more a layer", passes, fused, m.Config.Layers)
	}
}

// TestBatchExpertsByExpert: a decode batch's products by expert id take
// each chosen expert's rows once for a run of its (slot, token) pairs
// (matmul_id_tokens and its gate-and-up form, after one expert_groups
// dispatch a layer that both read), where they had taken a matvec a pair,
// and every sequence still gets its logits alone bit for bit: 11
// sequences over the tiny DeepSeek's 8 experts (2 a token) make runs of
// one to four pairs. Computing a run's second or fourth pair from another
// pair's activations, or only its first pair, fails it (checked). A batch
// of fewer pairs than experts (2 sequences, 4 pairs) keeps a matvec a
// pair, and its texts too are those alone.
func TestBatchExpertsByExpert(t *testing.T) {
	be := open(t)
	defer be.Close()
	m := loadModel(t, be, writeTiny(t, t.TempDir(), "tiny", synth.DeepSeek2, "Q4_0", 5))
	moe := m.Config.Layers - m.Config.LeadingDense
	for _, c := range []struct {
		seqs    int
		kernels map[string]int
	}{
		{11, map[string]int{"expert_groups": moe, "matmul_id_tokens_gate_up": moe, "matmul_id_tokens": moe,
			"matmul_id_gate_up": 0, "matmul_id_weighted": 0, "matmul_id": 0}},
		{2, map[string]int{"expert_groups": 0, "matmul_id_tokens_gate_up": 0, "matmul_id_tokens": 0,
			"matmul_id_gate_up": moe, "matmul_id_weighted": moe}},
	} {
		t.Run(fmt.Sprint(c.seqs), func(t *testing.T) {
			cache, err := m.NewCacheRows(32, 32*c.seqs)
			if err != nil {
				t.Fatal(err)
			}
			st, err := m.NewBatchStep(cache, c.seqs, 0)
			if err != nil {
				t.Fatal(err)
			}
			count := map[string]int{}
			webgpu.KeepKernels(st.Program, func(name string, _ int) bool { count[name]++; return true })
			for name, want := range c.kernels {
				if count[name] != want {
					t.Errorf("a batch step of %d sequences has %d %s dispatches, want %d (%d expert layers)", c.seqs, count[name], name, want, moe)
				}
			}
			var many [][]int32
			for i := range c.seqs {
				many = append(many, []int32{1, int32(30 + 11*i), int32(200 - 3*i)})
			}
			d, err := gputest.BatchMatchesSolo(m, many, 3, c.seqs)
			if err != nil {
				t.Fatal(err)
			}
			if d != "" {
				t.Fatal(d)
			}
		})
	}
}
