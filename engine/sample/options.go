package sample

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Options configures a Sampler. The zero value is not useful (TopP 0 is
// invalid); start from DefaultOptions and change what you need.
type Options struct {
	// Temperature divides the logits of the tokens that survive the filters.
	// <= 0 selects greedy decoding, as in llama.cpp.
	Temperature float32
	// TopK keeps the K most likely tokens; 0 disables it.
	TopK int
	// TopP keeps the smallest set of most likely tokens whose probability
	// reaches TopP; 1 disables it. Must lie in (0, 1].
	TopP float32
	// MinP drops tokens whose probability is below MinP times the most
	// likely token's; 0 disables it. Must lie in [0, 1].
	MinP float32
	// RepeatPenalty divides positive logits and multiplies non-positive ones
	// of tokens seen in the window; 1 disables it. Must be finite and > 0.
	RepeatPenalty float32
	// PresencePenalty is subtracted once from the logit of every token seen
	// in the window; 0 disables it.
	PresencePenalty float32
	// FrequencyPenalty is subtracted once per occurrence in the window.
	FrequencyPenalty float32
	// RepeatLastN is the window: how many of the latest history tokens the
	// penalties look at. 0 disables the penalties, -1 means the whole history.
	RepeatLastN int
	// Seed seeds the sampler's random generator; the same seed, options,
	// logits and history give the same tokens.
	Seed uint64
}

// DefaultOptions returns llama.cpp's defaults: temperature 0.8, top-k 40,
// top-p 0.95, min-p 0.05, penalties off with a 64-token window, seed 0.
func DefaultOptions() Options {
	return Options{
		Temperature:   0.8,
		TopK:          40,
		TopP:          0.95,
		MinP:          0.05,
		RepeatPenalty: 1.0,
		RepeatLastN:   64,
	}
}

// Validate reports every option that is out of range, naming each one.
func (o Options) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("sample: "+format, args...))
	}
	if !finite(o.Temperature) {
		bad("temperature %v is not a finite number", o.Temperature)
	}
	if o.TopK < 0 {
		bad("top_k %d is negative (use 0 to disable it)", o.TopK)
	}
	if !(o.TopP > 0 && o.TopP <= 1) {
		bad("top_p %v is outside (0, 1] (use 1 to disable it)", o.TopP)
	}
	if !(o.MinP >= 0 && o.MinP <= 1) {
		bad("min_p %v is outside [0, 1] (use 0 to disable it)", o.MinP)
	}
	if !finite(o.RepeatPenalty) || o.RepeatPenalty <= 0 || math.IsInf(float64(1/o.RepeatPenalty), 0) {
		bad("repeat_penalty %v must be finite and greater than 0 (use 1 to disable it)", o.RepeatPenalty)
	}
	if !finite(o.PresencePenalty) {
		bad("presence_penalty %v is not a finite number", o.PresencePenalty)
	}
	if !finite(o.FrequencyPenalty) {
		bad("frequency_penalty %v is not a finite number", o.FrequencyPenalty)
	}
	if o.RepeatLastN < -1 {
		bad("repeat_last_n %d is below -1 (-1 means the whole history, 0 disables penalties)", o.RepeatLastN)
	}
	return errors.Join(errs...)
}

// sanitized replaces each invalid field by its default, so that New never
// has to fail; Validate is how callers learn about bad options.
func (o Options) sanitized() Options {
	d := DefaultOptions()
	if !finite(o.Temperature) {
		o.Temperature = d.Temperature
	}
	if o.TopK < 0 {
		o.TopK = d.TopK
	}
	if !(o.TopP > 0 && o.TopP <= 1) {
		o.TopP = d.TopP
	}
	if !(o.MinP >= 0 && o.MinP <= 1) {
		o.MinP = d.MinP
	}
	if !finite(o.RepeatPenalty) || o.RepeatPenalty <= 0 || math.IsInf(float64(1/o.RepeatPenalty), 0) {
		o.RepeatPenalty = d.RepeatPenalty
	}
	if !finite(o.PresencePenalty) {
		o.PresencePenalty = d.PresencePenalty
	}
	if !finite(o.FrequencyPenalty) {
		o.FrequencyPenalty = d.FrequencyPenalty
	}
	if o.RepeatLastN < -1 {
		o.RepeatLastN = d.RepeatLastN
	}
	return o
}

// Widen returns the float64 that x reads as: the value of x's shortest
// decimal form, so that 0.8 stored in a float32 prints and travels as 0.8
// rather than 0.800000011920929.
func Widen(x float32) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(x), 'g', -1, 32), 64)
	return v
}

func finite(x float32) bool {
	return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
}
