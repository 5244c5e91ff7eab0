package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/sample"
)

// Options are the generation options both APIs accept, under the OpenAI
// names. Pointers tell "absent" (the default) from zero.
type Options struct {
	MaxTokens        *int     `json:"max_tokens,omitempty"`
	Temperature      *float64 `json:"temperature,omitempty"`
	TopP             *float64 `json:"top_p,omitempty"`
	TopK             *int     `json:"top_k,omitempty"`
	MinP             *float64 `json:"min_p,omitempty"`
	Seed             *Seed    `json:"seed,omitempty"`
	Stop             Stops    `json:"stop,omitempty"`
	PresencePenalty  *float64 `json:"presence_penalty,omitempty"`
	FrequencyPenalty *float64 `json:"frequency_penalty,omitempty"`
	RepeatPenalty    *float64 `json:"repeat_penalty,omitempty"`
	RepeatLastN      *int     `json:"repeat_last_n,omitempty"`
	// IgnoreEOS generates past end-of-generation tokens, to max_tokens
	// (benchmarks; llama.cpp's server has the same option).
	IgnoreEOS *bool `json:"ignore_eos,omitempty"`
	// Think switches a reasoning model's thinking on or off (ember's
	// extension; absent is the model's default).
	Think *bool `json:"think,omitempty"`
}

// Seed is the "seed" option: an integer, given as a JSON number or as a
// string of digits. Seeds travel as numbers within ±2^53, which a
// JavaScript number holds exactly, and as strings beyond. A negative seed
// stands for its 64-bit two's complement, as in llama.cpp.
type Seed uint64

// maxExact is the largest integer every JSON reader (JavaScript's numbers
// included) holds exactly.
const maxExact = 1 << 53

func (s *Seed) UnmarshalJSON(b []byte) error {
	text := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &text); err != nil {
			return err
		}
	}
	if u, err := strconv.ParseUint(text, 10, 64); err == nil {
		*s = Seed(u)
		return nil
	}
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		*s = Seed(uint64(i))
		return nil
	}
	return fmt.Errorf("seed must be an integer (a number, or a string of digits beyond 2^53), not %s", b)
}

func (s Seed) MarshalJSON() ([]byte, error) {
	switch i := int64(s); {
	case uint64(s) <= maxExact:
		return strconv.AppendUint(nil, uint64(s), 10), nil
	case i < 0 && i >= -maxExact:
		return strconv.AppendInt(nil, i, 10), nil
	}
	return []byte(`"` + strconv.FormatUint(uint64(s), 10) + `"`), nil
}

// Stops is the "stop" field: one string or an array of them.
type Stops []string

func (s *Stops) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = Stops{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("stop must be a string or an array of strings")
	}
	*s = many
	return nil
}

const (
	maxStops     = 8
	maxStopBytes = 256
)

// Invalid is a request's mistake: the server answers it with 400.
type Invalid string

func (e Invalid) Error() string { return string(e) }

func invalid(format string, args ...any) error { return Invalid(fmt.Sprintf(format, args...)) }

// Apply validates o and writes it into req; maxTokens is the cap (the
// context size) and vocab bounds top_k. A value out of range is an
// Invalid error naming it.
func (o *Options) Apply(req *engine.Request, maxTokens, vocab int) error {
	s := sample.DefaultOptions()
	// A seed of its own when none is given, within 2^53 so that it
	// travels as a plain number.
	s.Seed = rand.Uint64() >> 11
	inRange := func(name string, v *float64, lo, hi float64, dst *float32) error {
		if v == nil {
			return nil
		}
		if math.IsNaN(*v) || *v < lo || *v > hi {
			return invalid("%s %v is outside [%v, %v]", name, *v, lo, hi)
		}
		*dst = float32(*v)
		return nil
	}
	for _, err := range []error{
		inRange("temperature", o.Temperature, 0, 2, &s.Temperature),
		inRange("min_p", o.MinP, 0, 1, &s.MinP),
		inRange("presence_penalty", o.PresencePenalty, -2, 2, &s.PresencePenalty),
		inRange("frequency_penalty", o.FrequencyPenalty, -2, 2, &s.FrequencyPenalty),
		inRange("repeat_penalty", o.RepeatPenalty, 0, 10, &s.RepeatPenalty),
	} {
		if err != nil {
			return err
		}
	}
	if o.TopP != nil {
		if !(*o.TopP > 0 && *o.TopP <= 1) {
			return invalid("top_p %v is outside (0, 1]", *o.TopP)
		}
		s.TopP = float32(*o.TopP)
	}
	if o.RepeatPenalty != nil && *o.RepeatPenalty == 0 {
		return invalid("repeat_penalty must be greater than 0 (1 disables it)")
	}
	if o.TopK != nil {
		if *o.TopK < 0 || *o.TopK > vocab {
			return invalid("top_k %d is outside [0, %d]", *o.TopK, vocab)
		}
		s.TopK = *o.TopK
	}
	if o.RepeatLastN != nil {
		if *o.RepeatLastN < -1 || *o.RepeatLastN > maxTokens {
			return invalid("repeat_last_n %d is outside [-1, %d]", *o.RepeatLastN, maxTokens)
		}
		s.RepeatLastN = *o.RepeatLastN
	}
	if o.Seed != nil {
		s.Seed = uint64(*o.Seed)
	}
	if err := s.Validate(); err != nil {
		return invalid("%v", err)
	}
	req.Sample = s
	if o.MaxTokens != nil {
		if *o.MaxTokens < 1 || *o.MaxTokens > maxTokens {
			return invalid("max_tokens %d is outside [1, %d]", *o.MaxTokens, maxTokens)
		}
		req.MaxTokens = *o.MaxTokens
	}
	if len(o.Stop) > maxStops {
		return invalid("stop has %d strings; at most %d are allowed", len(o.Stop), maxStops)
	}
	for _, st := range o.Stop {
		if st == "" || len(st) > maxStopBytes {
			return invalid("a stop string must have 1 to %d bytes", maxStopBytes)
		}
	}
	req.Stop = o.Stop
	req.Think = o.Think
	if o.IgnoreEOS != nil {
		req.IgnoreEOS = *o.IgnoreEOS
	}
	return nil
}

// OptionsOf turns a request's sampling back into Options, to relay it to a
// browser engine that applies them itself. Numbers read as they were
// written (0.8, not float32's 0.800000011920929), and the seed keeps all
// its bits (Seed).
func OptionsOf(req engine.Request) *Options {
	s := req.Sample
	f := func(v float32) *float64 { x := sample.Widen(v); return &x }
	i := func(v int) *int { return &v }
	seed := Seed(s.Seed)
	o := &Options{
		Temperature: f(s.Temperature), TopP: f(s.TopP), TopK: i(s.TopK), MinP: f(s.MinP),
		Seed: &seed, Stop: req.Stop, PresencePenalty: f(s.PresencePenalty),
		FrequencyPenalty: f(s.FrequencyPenalty), RepeatPenalty: f(s.RepeatPenalty),
		RepeatLastN: i(s.RepeatLastN), Think: req.Think,
	}
	if req.MaxTokens > 0 {
		o.MaxTokens = i(req.MaxTokens)
	}
	if req.IgnoreEOS {
		o.IgnoreEOS = &req.IgnoreEOS
	}
	return o
}
