package engine

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/emberllm/ember/engine/chat"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/engine/sample"
	"github.com/emberllm/ember/engine/sample/grammar"
	"github.com/emberllm/ember/gpu"
)

// Request is one generation.
type Request struct {
	// Prompt is plain text; with Raw it is sent untouched, otherwise it is
	// the content of one user message formatted by the chat template.
	Prompt string
	// Messages is a conversation; it takes precedence over Prompt.
	Messages []chat.Message
	Raw      bool
	// Think switches reasoning on or off; nil is the model's default.
	Think     *bool
	Sample    sample.Options
	MaxTokens int // 0: until the context is full or a stop
	Stop      []string
	// IgnoreEOS keeps generating past end-of-generation tokens (benchmarks).
	IgnoreEOS bool
	// Tools is a JSON array of OpenAI tool definitions the chat template
	// shows the model (chat.Options.Tools).
	Tools json.RawMessage
	// Grammar, when set, constrains the generated text: only tokens the
	// grammar takes are sampled, and end-of-generation only where it may
	// end (which stops generation even with IgnoreEOS). The text is the
	// answer: a prompt that leaves a think block open does not make it
	// reasoning.
	Grammar *grammar.Grammar
	// LogitBias adds to tokens' logits before sampling (-100 bans).
	LogitBias map[int32]float32
	// Logprobs reports each generated token's log-probability, and
	// TopLogprobs that many alternatives, in Event.Logprob.
	Logprobs    bool
	TopLogprobs int
}

// Event is one generated token and the text it completes. Text is content;
// Reasoning is text inside the model's thinking block.
type Event struct {
	Token     int32
	Text      string
	Reasoning string
	// Logprob, with Request.Logprobs, is the token's log-probability.
	Logprob *TokenLogprob
}

// TokenLogprob is a generated token's log-probability under the model's
// distribution (temperature 1, before sampling filters, biases and
// grammars), with the most likely alternatives. Piece is the bytes the
// token writes (it may end inside a character).
type TokenLogprob struct {
	Token   int32
	Piece   string
	Logprob float32
	Top     []TopLogprob
}

// TopLogprob is one alternative of a TokenLogprob.
type TopLogprob struct {
	Token   int32
	Piece   string
	Logprob float32
}

// Stats describe one generation.
type Stats struct {
	PromptTokens    int
	ReusedTokens    int // prompt tokens whose cache was kept from the previous turn
	GeneratedTokens int
	Prefill         time.Duration
	Decode          time.Duration
	TimeToFirst     time.Duration
	StopReason      string // "stop" (EOS or stop string), "length", "cancelled"
}

// PrefillRate is prompt tokens computed per second.
func (s Stats) PrefillRate() float64 {
	return rate(s.PromptTokens-s.ReusedTokens, s.Prefill)
}

// DecodeRate is generated tokens per second after the first.
func (s Stats) DecodeRate() float64 { return rate(s.GeneratedTokens-1, s.Decode) }

func rate(n int, d time.Duration) float64 {
	if n <= 0 || d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// Result is what Generate returns besides the streamed events.
type Result struct {
	Text      string
	Reasoning string
	Tokens    []int32
	Stats     Stats
	// Logprobs, with Request.Logprobs, has one entry per generated token.
	Logprobs []TokenLogprob
}

// ErrContextFull is returned when a prompt does not fit the context.
var ErrContextFull = errors.New("prompt does not fit the context")

// prefillChunks are the step sizes compiled for prompts; a prompt runs as
// the fewest steps of these sizes that the session takes (chunkFits).
var prefillChunks = []int{512, 256, 32, 4, 1}

// chunkFits reports whether the session runs prompt chunks of c tokens.
// Chunks of 512 (llama.cpp's default micro-batch) are for a backend whose
// work runs apart from the host (gpu.Copier: a GPU), whose tiled products
// fill more of the device with 512 columns than with 256; the CPU
// backend's products ran 512 columns slower than 256 (bench/JOURNAL.md,
// 2026-11-26). A batch's chunks are placed token by token, at most
// gpu.MaxPlaces of them.
func (s *Session) chunkFits(c int) bool {
	if _, device := s.e.Backend.(gpu.Copier); c > 256 && !device {
		return false
	}
	return s.batch == nil || c <= gpu.MaxPlaces
}

// Session is one conversation with its own KV cache. It is not safe for
// concurrent use.
type Session struct {
	e       *Engine
	cache   *model.Cache
	steps   map[int]*model.Step
	history []int32 // tokens whose keys and values are in the cache, in order
	logits  []float32
	tokbuf  []byte
	// lastRun is the step that evaluated the most recent token: its Logits
	// and Next buffers hold that token's outputs.
	lastRun *model.Step
	// prepared is the next sampled step, recorded while the device runs
	// the current one (prepare).
	prepared *preparedRun
	// chainLen caps the greedy steps chained on the device (chain.go);
	// chosen receive the tokens a chain's steps chose, two chains in turn.
	chainLen int
	chosen   [2]gpu.Buffer
	// topSteps are the decode steps that also choose sampling candidates,
	// by their count (candidates.go); candidates enables them.
	topSteps   map[int]*model.Step
	candidates bool
	// candRaw, candIDs and candVals hold a step's candidates as read back.
	candRaw  []byte
	candIDs  []int32
	candVals []float32
	// batchSlot places a session of a Batch (batch_session.go).
	batchSlot
}

// NewSession allocates a session's KV cache.
func (e *Engine) NewSession() (*Session, error) {
	c, err := e.Model.NewCache(e.Context)
	if err != nil {
		return nil, err
	}
	return e.newSession(c), nil
}

// newSession is a session over cache c.
func (e *Engine) newSession(c *model.Cache) *Session {
	return &Session{e: e, cache: c, steps: map[int]*model.Step{}, logits: make([]float32, e.Model.Config.Vocab),
		chainLen: chainSteps, topSteps: map[int]*model.Step{}, candidates: true}
}

// Reset forgets the conversation (the cache is simply overwritten later).
func (s *Session) Reset() { s.history = s.history[:0] }

// History is the tokens currently in the cache.
func (s *Session) History() []int32 { return s.history }

func (s *Session) step(t int) (*model.Step, error) {
	if st, ok := s.steps[t]; ok {
		return st, nil
	}
	st, err := s.e.Model.NewStep(s.cache, t)
	if err != nil {
		return nil, err
	}
	s.steps[t] = st
	return st, nil
}

// Prompt turns a request into the text the model sees.
func (s *Session) Prompt(req Request) (string, error) {
	if req.Raw {
		if len(req.Messages) > 0 {
			return "", errors.New("a raw request takes a prompt, not messages")
		}
		return req.Prompt, nil
	}
	msgs := req.Messages
	if len(msgs) == 0 {
		msgs = []chat.Message{{Role: "user", Content: req.Prompt}}
	}
	return s.e.Chat.Render(msgs, chat.Options{AddGenerationPrompt: true, Thinking: req.Think, Tools: req.Tools})
}

// Tokenize encodes a prompt as the model sees it: BOS as the file says and
// special tokens recognised.
func (s *Session) Tokenize(prompt string) []int32 {
	return s.e.Tokenizer.Encode(prompt, true, true)
}

// Eval runs ids, the whole sequence so far, through the model, keeping the
// cache of the longest prefix the session already holds, and leaves the
// last token's logits for Logits: a caller steering the sequence itself
// (teacher forcing, scoring text) rather than sampling it.
func (s *Session) Eval(ctx context.Context, ids []int32) error {
	_, err := s.eval(ctx, ids)
	return err
}

// eval runs tokens through the model after the first keep tokens of the
// cache, leaving the last token's logits ready. It returns the number of
// cached tokens kept.
func (s *Session) eval(ctx context.Context, ids []int32) (kept int, err error) {
	if len(ids) == 0 {
		return 0, errors.New("empty prompt")
	}
	if len(ids) > s.cache.Ctx {
		return 0, fmt.Errorf("%w: the prompt is %d tokens and the context %d", ErrContextFull, len(ids), s.cache.Ctx)
	}
	// Keep the longest common prefix, but always recompute the last token so
	// that its logits exist.
	for kept < len(s.history) && kept < len(ids)-1 && s.history[kept] == ids[kept] {
		kept++
	}
	s.history = append(s.history[:kept], ids[kept:]...)
	pos := kept
	for pos < len(ids) {
		if err := ctx.Err(); err != nil {
			s.history = s.history[:pos]
			return kept, err
		}
		n := len(ids) - pos
		size := 1
		for _, c := range prefillChunks {
			if c <= n && s.chunkFits(c) {
				size = c
				break
			}
		}
		if err := s.run(ids[pos:pos+size], pos); err != nil {
			s.history = s.history[:pos]
			return kept, err
		}
		pos += size
	}
	return kept, nil
}

func (s *Session) run(ids []int32, pos int) error {
	if s.batch != nil {
		return s.batchDecode(ids, pos)
	}
	st, err := s.step(len(ids))
	if err != nil {
		return err
	}
	return s.runStep(st, ids, pos)
}

// runStep writes ids to st's tokens and runs it at pos.
func (s *Session) runStep(st *model.Step, ids []int32, pos int) error {
	if cap(s.tokbuf) < 4*len(ids) {
		s.tokbuf = make([]byte, 4*len(ids))
	}
	b := s.tokbuf[:4*len(ids)]
	for i, id := range ids {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(id))
	}
	if err := st.Tokens.Write(0, b); err != nil {
		return err
	}
	s.lastRun = st
	pr := s.prepared
	s.prepared = nil
	return pr.run(st, gpu.Params{Pos: pos})
}

// preparedRun is a step's run recorded ahead (gpu.Preparer).
type preparedRun struct {
	st     *model.Step
	submit func(gpu.Params) error
}

// prepare records a run of step st while the device computes the token
// before it, on a backend that can (a GPU's): a sampled token has to come
// back to the host before the next step can start, and the next step's
// commands are then ready to submit as soon as it is written.
func prepare(st *model.Step) (*preparedRun, error) {
	pp, ok := st.Program.(gpu.Preparer)
	if !ok {
		return nil, nil
	}
	submit, err := pp.Prepare()
	if err != nil {
		return nil, err
	}
	return &preparedRun{st, submit}, nil
}

// run submits pr where it is a run of st (pr may be nil), else runs st.
func (pr *preparedRun) run(st *model.Step, params gpu.Params) error {
	if pr != nil && pr.st == st {
		return pr.submit(params)
	}
	return st.Program.Run(params)
}

// Logits reads the last evaluated token's logits.
func (s *Session) Logits() ([]float32, error) {
	st := s.lastRun
	if st == nil {
		return nil, errors.New("nothing evaluated yet")
	}
	if s.batch != nil {
		return s.logits, nil // copied out by the batch
	}
	raw := make([]byte, 4*len(s.logits))
	if err := st.Logits.Read(0, raw); err != nil {
		return nil, err
	}
	for i := range s.logits {
		s.logits[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return s.logits, nil
}

func (s *Session) argmax() (int32, error) {
	if s.batch != nil {
		return s.batchNext, nil
	}
	var b [4]byte
	if err := s.lastRun.Next.Read(0, b[:]); err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(b[:])), nil
}

// Generate runs a request, calling emit for every token (emit may be nil;
// an error from emit stops generation and is returned).
func (s *Session) Generate(ctx context.Context, req Request, emit func(Event) error) (*Result, error) {
	if err := req.Sample.Validate(); err != nil {
		return nil, err
	}
	prompt, err := s.Prompt(req)
	if err != nil {
		return nil, err
	}
	if !req.Raw && s.e.Tokenizer.AddBOS() {
		// Templates write the BOS text themselves; the tokenizer adds BOS too,
		// so drop the written one rather than start with two (as llama.cpp does).
		prompt = s.e.Chat.TrimBOS(prompt)
	}
	ids := s.Tokenize(prompt)
	return s.GenerateTokens(ctx, ids, req, s.e.Chat.PromptStartsInReasoning(prompt), emit)
}

// GenerateTokens is Generate from already tokenized input.
func (s *Session) GenerateTokens(ctx context.Context, ids []int32, req Request, inReasoning bool, emit func(Event) error) (*Result, error) {
	defer s.leave()
	res := &Result{}
	st := &res.Stats
	st.PromptTokens = len(ids)
	start := time.Now()
	kept, err := s.eval(ctx, ids)
	if err == nil {
		// A device backend returns once the prompt's work is submitted;
		// prefill ends when it is done.
		err = s.sync()
	}
	st.ReusedTokens = kept
	st.Prefill = time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			st.StopReason = "cancelled"
			return res, ctx.Err()
		}
		return nil, err
	}

	tok := s.e.Tokenizer
	smp := sample.New(req.Sample)
	smp.SetBias(req.LogitBias)
	var gm *grammar.Matcher
	if req.Grammar != nil {
		if gm, err = grammar.NewMatcher(req.Grammar, s.e.GrammarVocab()); err != nil {
			return nil, err
		}
		inReasoning = false
	}
	// Grammars, biases and log-probabilities need every logit on the host.
	whole := gm != nil || len(req.LogitBias) > 0 || req.Logprobs
	stops := sample.NewStopStrings(req.Stop)
	dec := tok.NewDecoder()
	think := chat.NewThinkSplitter(inReasoning)
	var content, reasoning strings.Builder
	decodeStart := time.Now()
	limit := req.MaxTokens
	if room := s.cache.Ctx - len(s.history); limit <= 0 || limit > room+1 {
		limit = room + 1
	}
	st.StopReason = "length"

	emitText := func(id int32, text string, lp *TokenLogprob) error {
		r, c := think.Feed(text)
		reasoning.WriteString(r)
		content.WriteString(c)
		if emit != nil && (r != "" || c != "" || id >= 0) {
			return emit(Event{Token: id, Text: c, Reasoning: r, Logprob: lp})
		}
		return nil
	}

	greedy := smp.IsGreedy() && !smp.HasPenalties() && !whole
	// queued are tokens a batch's chain of device steps chose and already
	// ran; pipe hands out a lone session's chained tokens (chain.go).
	var queued []int32
	var pipe *chainPipe
	for len(res.Tokens) < limit {
		if err := ctx.Err(); err != nil {
			st.StopReason = "cancelled"
			break
		}
		var next int32
		var lp *TokenLogprob
		ran := len(queued) > 0 || pipe != nil
		if pipe != nil {
			next, err = pipe.next()
		} else if ran {
			next, queued = queued[0], queued[1:]
		} else if greedy {
			// The device's argmax is the answer: read back 4 bytes, not the logits.
			next, err = s.argmax()
		} else if s.lastRun.Top > 0 {
			next, err = s.sampleCandidates(smp)
		} else {
			next, lp, err = s.sampleWhole(smp, gm, req)
		}
		if err != nil {
			return nil, err
		}
		if next == sample.NoToken {
			if gm != nil {
				return nil, errors.New("the grammar allows no token here (the model's vocabulary cannot write what it needs)")
			}
			return nil, errors.New("the model produced no usable logits (all NaN or -Inf)")
		}
		if gm != nil {
			if err := gm.Accept(next); err != nil {
				return nil, err
			}
		}
		if len(res.Tokens) == 0 {
			st.TimeToFirst = time.Since(start)
			decodeStart = time.Now()
		}
		if tok.IsEOG(next) && (!req.IgnoreEOS || gm != nil) {
			st.StopReason = "stop"
			break
		}
		res.Tokens = append(res.Tokens, next)
		if lp != nil {
			res.Logprobs = append(res.Logprobs, *lp)
		}
		st.GeneratedTokens++
		text, stopped := stops.Feed(dec.Add(next))
		if err := emitText(next, text, lp); err != nil {
			return res, err
		}
		if stopped {
			st.StopReason = "stop"
			break
		}
		if len(res.Tokens) >= limit || len(s.history) >= s.cache.Ctx {
			break
		}
		pos := len(s.history)
		s.history = append(s.history, next)
		if ran {
			continue
		}
		if greedy {
			// Steps are chained only as far as the loop would run them.
			steps := min(limit-len(res.Tokens), s.cache.Ctx-pos)
			if s.batch != nil {
				queued, err = s.batchChain(next, pos, steps)
			} else if pipe, err = s.startChains(next, pos, steps); pipe == nil && err == nil {
				err = s.run([]int32{next}, pos)
			}
		} else if s.batch != nil {
			if !whole {
				// the batch's step chooses the candidates this asks for
				_, err = s.candidateStep(smp, len(s.history))
			}
			if err == nil {
				err = s.run([]int32{next}, pos)
			}
		} else {
			var step *model.Step
			if step, err = s.sampledStep(smp, whole, len(s.history)); err == nil {
				err = s.runStep(step, []int32{next}, pos)
			}
			// The next step, where the loop will run one: its token is
			// made from this step's output, its commands now.
			if err == nil && len(res.Tokens)+1 < limit && pos+1 < s.cache.Ctx {
				if step, err = s.sampledStep(smp, whole, len(s.history)+1); err == nil {
					s.prepared, err = prepare(step)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if st.StopReason != "stop" {
		if err := emitText(-1, stops.Flush()+dec.Flush(), nil); err != nil {
			return res, err
		}
	}
	r, c := think.Flush()
	reasoning.WriteString(r)
	content.WriteString(c)
	st.Decode = time.Since(decodeStart)
	res.Text, res.Reasoning = content.String(), reasoning.String()
	if st.StopReason == "cancelled" {
		return res, ctx.Err()
	}
	return res, nil
}

// sampledStep is a lone session's decode step for a sampled token, the
// session holding history tokens: one choosing the sampler's candidates
// on the device (candidateStep), else the plain one, whose logits are read
// whole.
func (s *Session) sampledStep(smp *sample.Sampler, whole bool, history int) (*model.Step, error) {
	if !whole {
		if top, err := s.candidateStep(smp, history); top != nil || err != nil {
			return top, err
		}
	}
	return s.step(1)
}

// sampleWhole samples from the whole logits of the last step, masked by
// the grammar when there is one, and works out the token's
// log-probabilities when the request asks for them.
func (s *Session) sampleWhole(smp *sample.Sampler, gm *grammar.Matcher, req Request) (int32, *TokenLogprob, error) {
	logits, err := s.Logits()
	if err != nil {
		return 0, nil, err
	}
	var allow []uint64
	if gm != nil {
		if allow, err = gm.Allowed(); err != nil {
			return 0, nil, err
		}
	}
	next := smp.SampleMasked(logits, s.history, allow)
	if !req.Logprobs || next == sample.NoToken {
		return next, nil, nil
	}
	tok := s.e.Tokenizer
	v, top := sample.Logprobs(logits, next, req.TopLogprobs)
	lp := &TokenLogprob{Token: next, Piece: tok.TextPiece(next), Logprob: v}
	for _, c := range top {
		lp.Top = append(lp.Top, TopLogprob{Token: c.Token, Piece: tok.TextPiece(c.Token), Logprob: c.Logprob})
	}
	return next, lp, nil
}

// DecodeKernels is the number of kernels one decode step dispatches (0
// before the first decode).
func (s *Session) DecodeKernels() int {
	if st, ok := s.steps[1]; ok {
		return st.Program.Kernels()
	}
	return 0
}
