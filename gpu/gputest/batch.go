package gputest

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu"
)

// A decode batch (model.NewBatchStep) must give every sequence the numbers
// it gets decoding alone: each token of a batch step is computed as a step
// of that one token would compute it. BatchDecode decodes several prompts
// together; SoloDecode (each prompt's Decode) is the reference, bit for
// bit.

// BatchDecode decodes prompts greedily on m, n tokens each (the first from
// the prompt's prefill), all in one batch step of batch tokens per token
// (batch >= len(prompts); the other columns are padding at spare rows).
// The sequences share one cache, a slot of ctx rows each, and each prompt
// is prefilled into its slot by a step placed there (gpu.Place). The
// sequences' columns rotate from step to step, so that no sequence keeps
// its column. Last, the batch step must refuse a token placed at its
// slot's end (a row of the cache, but past the sequence's ctx positions,
// which backends size their attention to).
func BatchDecode(m *model.Model, prompts [][]int32, n, batch int) ([]Decoded, error) {
	S := len(prompts)
	if S < 1 || batch < S {
		return nil, fmt.Errorf("%d prompts in a batch of %d", S, batch)
	}
	ctx := 0
	for _, p := range prompts {
		ctx = max(ctx, len(p)+n+1)
	}
	spare := S * ctx
	cache, err := m.NewCacheRows(ctx, spare+batch)
	if err != nil {
		return nil, err
	}
	out := make([]Decoded, S)
	vocab := m.Config.Vocab
	read := func(st *model.Step, col int, d *Decoded) error {
		lb := make([]byte, 4*vocab)
		if err := st.Logits.Read(4*vocab*col, lb); err != nil {
			return err
		}
		nb := make([]byte, 4)
		if err := st.Next.Read(4*col, nb); err != nil {
			return err
		}
		d.Logits = append(d.Logits, f32s(lb))
		d.Next = append(d.Next, int32(binary.LittleEndian.Uint32(nb)))
		return nil
	}
	steps := map[int]*model.Step{}
	for i, p := range prompts {
		pre, err := stepOf(m, cache, steps, len(p))
		if err != nil {
			return nil, err
		}
		places := make([]gpu.Place, len(p))
		for t := range places {
			places[t] = gpu.Place{Pos: t, Base: i * ctx}
		}
		if err := runTokens(pre, p, gpu.Params{Places: places}); err != nil {
			return nil, err
		}
		if err := read(pre, 0, &out[i]); err != nil {
			return nil, err
		}
	}
	dec, err := m.NewBatchStep(cache, batch, 0)
	if err != nil {
		return nil, err
	}
	ids := make([]int32, batch)
	places := make([]gpu.Place, batch)
	for k := 1; k < n; k++ {
		col := func(i int) int { return (i + k) % batch }
		for c := range places {
			ids[c], places[c] = 0, gpu.Place{Pos: 0, Base: spare + c}
		}
		for i, p := range prompts {
			ids[col(i)] = out[i].Next[k-1]
			places[col(i)] = gpu.Place{Pos: len(p) + k - 1, Base: i * ctx}
		}
		if err := runTokens(dec, ids, gpu.Params{Places: places}); err != nil {
			return nil, err
		}
		for i := range prompts {
			if err := read(dec, col(i), &out[i]); err != nil {
				return nil, err
			}
		}
	}
	places[0] = gpu.Place{Pos: ctx, Base: 0}
	if err := dec.Program.Run(gpu.Params{Places: places}); err == nil {
		return nil, fmt.Errorf("the batch step ran a token at position %d of a slot of %d positions", ctx, ctx)
	}
	return out, nil
}

// SoloDecode is Decode of each prompt in turn on m, reusing one cache
// and the steps of each prompt length (fewer graphs to compile than a
// Decode each).
func SoloDecode(m *model.Model, prompts [][]int32, n int) ([]Decoded, error) {
	ctx := 0
	for _, p := range prompts {
		ctx = max(ctx, len(p)+n+1)
	}
	cache, err := m.NewCache(ctx)
	if err != nil {
		return nil, err
	}
	steps := map[int]*model.Step{}
	out := make([]Decoded, len(prompts))
	vocab := m.Config.Vocab
	for i, p := range prompts {
		for k := 0; k < n; k++ {
			ids, pos := p, 0
			if k > 0 {
				ids, pos = out[i].Next[k-1:k], len(p)+k-1
			}
			st, err := stepOf(m, cache, steps, len(ids))
			if err != nil {
				return nil, err
			}
			if err := runTokens(st, ids, gpu.Params{Pos: pos}); err != nil {
				return nil, err
			}
			lb := make([]byte, 4*vocab)
			nb := make([]byte, 4)
			if err := st.Logits.Read(0, lb); err != nil {
				return nil, err
			}
			if err := st.Next.Read(0, nb); err != nil {
				return nil, err
			}
			out[i].Logits = append(out[i].Logits, f32s(lb))
			out[i].Next = append(out[i].Next, int32(binary.LittleEndian.Uint32(nb)))
		}
	}
	return out, nil
}

// stepOf is the step of t tokens over cache, made once.
func stepOf(m *model.Model, cache *model.Cache, steps map[int]*model.Step, t int) (*model.Step, error) {
	if st, ok := steps[t]; ok {
		return st, nil
	}
	st, err := m.NewStep(cache, t)
	if err != nil {
		return nil, err
	}
	steps[t] = st
	return st, nil
}

// runTokens writes ids to st's tokens and runs it.
func runTokens(st *model.Step, ids []int32, p gpu.Params) error {
	b := make([]byte, 4*len(ids))
	for i, id := range ids {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(id))
	}
	if err := st.Tokens.Write(0, b); err != nil {
		return err
	}
	return st.Program.Run(p)
}

func f32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// BatchMatchesSolo decodes prompts n tokens each on m both ways,
// together in batch steps of batch tokens (BatchDecode) and each alone
// (SoloDecode), and says how the first sequence that differs does ("" when
// none does).
func BatchMatchesSolo(m *model.Model, prompts [][]int32, n, batch int) (string, error) {
	got, err := BatchDecode(m, prompts, n, batch)
	if err != nil {
		return "", err
	}
	want, err := SoloDecode(m, prompts, n)
	if err != nil {
		return "", err
	}
	for i := range prompts {
		if d := SameDecoded(got[i], want[i]); d != "" {
			return fmt.Sprintf("sequence %d: %s", i, d), nil
		}
	}
	return "", nil
}

// SameDecoded says where got differs from want bit for bit ("" when it
// does not): a logit or a chosen token.
func SameDecoded(got, want Decoded) string {
	if len(got.Next) != len(want.Next) {
		return fmt.Sprintf("%d steps, want %d", len(got.Next), len(want.Next))
	}
	for k := range want.Next {
		if got.Next[k] != want.Next[k] {
			return fmt.Sprintf("step %d chose %d, want %d", k, got.Next[k], want.Next[k])
		}
		for i, v := range want.Logits[k] {
			if math.Float32bits(got.Logits[k][i]) != math.Float32bits(v) {
				return fmt.Sprintf("step %d: logit %d is %g, want %g", k, i, got.Logits[k][i], v)
			}
		}
	}
	return ""
}
