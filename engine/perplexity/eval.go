// Package perplexity measures a model's quality the way llama.cpp's
// llama-perplexity does: the perplexity of a text cut into chunks of a
// fixed context, each scored over its second half, and the KL divergence
// of the model's next-token distributions from those of a base model saved
// in llama-perplexity's base-logits file (which this package reads and
// writes in llama.cpp's own format, so either program's file serves the
// other). The printed numbers follow llama-perplexity's formulas and
// formats; the command is `ember perplexity`.
package perplexity

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu"
)

// ubatch is llama.cpp's default micro-batch (n_ubatch): a chunk longer
// than this runs as steps of this many tokens, as llama.cpp splits it.
const ubatch = 512

// deviceLogitBytes caps the logits one step of a device backend writes:
// WebGPU guarantees storage bindings of 128 MiB and no more.
const deviceLogitBytes = 128 << 20

// piece is one step of a chunk: t tokens from position pos, of which the
// last outputs produce logits (at least one; only those at or after the
// chunk's first scored position are kept).
type piece struct{ pos, t, outputs int }

// Evaluator runs chunks of a fixed context through a model, each from an
// empty cache, and keeps the logits of the positions from the chunk's
// middle on: the ones llama-perplexity scores.
type Evaluator struct {
	m     *model.Model
	Ctx   int // tokens of a chunk
	First int // the first position whose logits are kept (Ctx/2)
	Vocab int
	cache *model.Cache
	plan  []piece
	steps map[piece]*model.Step
	tok   []byte
	raw   []byte
	// Logits holds the last chunk's logits of positions First..Ctx-1,
	// Vocab a position.
	Logits []float32
}

// NewEvaluator allocates a cache of ctx positions on m's backend and plans
// a chunk's steps as llama.cpp runs them: micro-batches of 512 tokens, the
// last layer and the output head on the positions that are scored. A
// device backend's step writes at most 128 MiB of logits, so with a large
// vocabulary its scored positions take several steps.
func NewEvaluator(m *model.Model, ctx int) (*Evaluator, error) {
	if ctx < 4 {
		return nil, fmt.Errorf("a context of %d tokens is too small to score (at least 4)", ctx)
	}
	ev := &Evaluator{m: m, Ctx: ctx, First: ctx / 2, Vocab: m.Config.Vocab, steps: map[piece]*model.Step{}}
	var err error
	if ev.cache, err = m.NewCache(ctx); err != nil {
		return nil, err
	}
	maxOut := ctx
	if _, device := m.Backend.(gpu.Copier); device {
		maxOut = max(1, deviceLogitBytes/(4*ev.Vocab))
	}
	ev.plan = planChunk(ctx, ev.First, maxOut)
	ev.Logits = make([]float32, (ctx-ev.First)*ev.Vocab)
	return ev, nil
}

// planChunk cuts [0, ctx) into micro-batches of ubatch tokens whose scored
// positions (from first on, always a suffix) are their outputs; where
// those exceed maxOut, they are cut into steps of maxOut positions after a
// step of the unscored ones.
func planChunk(ctx, first, maxOut int) []piece {
	var plan []piece
	for s := 0; s < ctx; s += ubatch {
		e := min(ctx, s+ubatch)
		o := e - max(s, first)
		switch {
		case o <= 0:
			plan = append(plan, piece{s, e - s, 1})
		case o <= maxOut:
			plan = append(plan, piece{s, e - s, o})
		default:
			if e-o > s {
				plan = append(plan, piece{s, e - o - s, 1})
			}
			for p := e - o; p < e; p += maxOut {
				n := min(maxOut, e-p)
				plan = append(plan, piece{p, n, n})
			}
		}
	}
	return plan
}

// Steps is the number of model steps a chunk takes.
func (ev *Evaluator) Steps() int { return len(ev.plan) }

// Chunk evaluates tokens (Ctx of them, as the model should see them: a
// chunk of a text starts with BOS where the vocabulary adds it) from an
// empty cache, leaving the logits of positions First..Ctx-1 in Logits.
// done, when not nil, hears each finished step.
func (ev *Evaluator) Chunk(tokens []int32, done func(step int)) error {
	if len(tokens) != ev.Ctx {
		return fmt.Errorf("a chunk of %d tokens for a context of %d", len(tokens), ev.Ctx)
	}
	for i, p := range ev.plan {
		st, err := ev.step(p)
		if err != nil {
			return err
		}
		b := ev.tokens(tokens[p.pos : p.pos+p.t])
		if err := st.Tokens.Write(0, b); err != nil {
			return err
		}
		if err := st.Program.Run(gpu.Params{Pos: p.pos}); err != nil {
			return err
		}
		// The step's outputs are its last positions; keep those scored.
		from := max(p.pos+p.t-p.outputs, ev.First)
		if n := p.pos + p.t - from; n > 0 {
			skip := p.outputs - n
			if err := ev.read(st, skip, n, from-ev.First); err != nil {
				return err
			}
		}
		if done != nil {
			done(i)
		}
	}
	return nil
}

func (ev *Evaluator) step(p piece) (*model.Step, error) {
	if st := ev.steps[p]; st != nil {
		return st, nil
	}
	st, err := ev.m.NewStepOutputs(ev.cache, p.t, p.outputs)
	if err != nil {
		return nil, err
	}
	ev.steps[p] = st
	return st, nil
}

func (ev *Evaluator) tokens(ids []int32) []byte {
	if cap(ev.tok) < 4*len(ids) {
		ev.tok = make([]byte, 4*len(ids))
	}
	b := ev.tok[:4*len(ids)]
	for i, id := range ids {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(id))
	}
	return b
}

// read copies n rows of logits of st, after its first skip rows, into
// Logits from row at, through a buffer of at most readBytes.
func (ev *Evaluator) read(st *model.Step, skip, n, at int) error {
	row := 4 * ev.Vocab
	per := max(1, readBytes/row)
	for done := 0; done < n; done += per {
		k := min(per, n-done)
		if cap(ev.raw) < k*row {
			ev.raw = make([]byte, k*row)
		}
		raw := ev.raw[:k*row]
		if err := st.Logits.Read(row*(skip+done), raw); err != nil {
			return err
		}
		dst := ev.Logits[(at+done)*ev.Vocab : (at+done+k)*ev.Vocab]
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	}
	return nil
}

// readBytes bounds the buffer logits are read through (a variable for
// the tests).
var readBytes = 8 << 20
