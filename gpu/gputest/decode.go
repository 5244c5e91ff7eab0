package gputest

import (
	"encoding/binary"
	"math"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu"
)

// Beyond single ops, backends are compared on whole models: one decodes a
// greedy path, the other replays it (teacher forcing), and their logits
// are compared step by step. The parity tests and bench/parity share this.

// Decoded is what decoding gave at each step: the logits and the token
// chosen.
type Decoded struct {
	Logits [][]float32
	Next   []int32
}

// Decode loads the model at path onto be, prefills prompt in one step,
// then decodes n-1 more tokens one at a time: forced[k] when forced is
// given (teacher forcing), else its own choice.
func Decode(be gpu.Backend, path string, prompt []int32, n int, forced []int32) (Decoded, error) {
	r, err := gguf.Open(path)
	if err != nil {
		return Decoded{}, err
	}
	defer r.Close()
	return DecodeFrom(be, r, prompt, n, forced)
}

// DecodeFrom is Decode of the model r reads.
func DecodeFrom(be gpu.Backend, r *gguf.Reader, prompt []int32, n int, forced []int32) (Decoded, error) {
	var out Decoded
	m, err := model.Load(r, be)
	if err != nil {
		return out, err
	}
	cache, err := m.NewCache(len(prompt) + n + 1)
	if err != nil {
		return out, err
	}
	pre, err := m.NewStep(cache, len(prompt))
	if err != nil {
		return out, err
	}
	dec, err := m.NewStep(cache, 1)
	if err != nil {
		return out, err
	}
	step := func(st *model.Step, ids []int32, pos int) error {
		b := make([]byte, 4*len(ids))
		for i, id := range ids {
			binary.LittleEndian.PutUint32(b[4*i:], uint32(id))
		}
		if err := st.Tokens.Write(0, b); err != nil {
			return err
		}
		if err := st.Program.Run(gpu.Params{Pos: pos}); err != nil {
			return err
		}
		lb := make([]byte, 4*m.Config.Vocab)
		if err := st.Logits.Read(0, lb); err != nil {
			return err
		}
		l := make([]float32, m.Config.Vocab)
		for i := range l {
			l[i] = math.Float32frombits(binary.LittleEndian.Uint32(lb[4*i:]))
		}
		nb := make([]byte, 4)
		if err := st.Next.Read(0, nb); err != nil {
			return err
		}
		out.Logits = append(out.Logits, l)
		out.Next = append(out.Next, int32(binary.LittleEndian.Uint32(nb)))
		return nil
	}
	if err := step(pre, prompt, 0); err != nil {
		return out, err
	}
	for k := 1; k < n; k++ {
		id := out.Next[k-1]
		if forced != nil {
			id = forced[k-1]
		}
		if err := step(dec, []int32{id}, len(prompt)+k-1); err != nil {
			return out, err
		}
	}
	return out, nil
}

// LogitDiff is how far got is from ref along ref's path: the steps that
// choose ref's token, and the largest logit difference over the largest
// logit of its step.
func LogitDiff(got, ref Decoded) (agree int, worst float64) {
	for k, l := range ref.Logits {
		if got.Next[k] == ref.Next[k] {
			agree++
		}
		var top float64
		for _, v := range l {
			top = math.Max(top, math.Abs(float64(v)))
		}
		for i, v := range l {
			worst = math.Max(worst, math.Abs(float64(got.Logits[k][i]-v))/top)
		}
	}
	return agree, worst
}
