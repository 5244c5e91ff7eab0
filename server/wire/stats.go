package wire

import (
	"time"

	"github.com/emberllm/ember/engine"
)

// Progress is the state of a model load, sent to every WebSocket client
// as it changes and to each new client when it connects.
type Progress struct {
	Model  string `json:"model"`
	State  string `json:"state"` // "loading", "ready" or "failed"
	Loaded int64  `json:"loaded"`
	Total  int64  `json:"total"`
	Error  string `json:"error,omitempty"`
}

// ServerStats answer the WebSocket "stats" request.
type ServerStats struct {
	Model           string   `json:"model,omitempty"`
	Load            Progress `json:"load"`
	Parallel        int      `json:"parallel"`
	Busy            int      `json:"busy"`
	Queued          int64    `json:"queued"`
	Requests        int64    `json:"requests"`
	Completed       int64    `json:"completed"`
	Cancelled       int64    `json:"cancelled"`
	Failed          int64    `json:"failed"`
	PromptTokens    int64    `json:"prompt_tokens"`
	GeneratedTokens int64    `json:"generated_tokens"`
	Connections     int      `json:"connections"`
	BrowserEngines  int      `json:"browser_engines"`
	UptimeSeconds   float64  `json:"uptime_s"`
}

// EngineStats is the inverse of StatsOf, for results a browser engine
// relays.
func (g GenStats) EngineStats() engine.Stats {
	d := func(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }
	return engine.Stats{
		PromptTokens: g.PromptTokens, ReusedTokens: g.ReusedTokens, GeneratedTokens: g.GeneratedTokens,
		Prefill: d(g.PrefillMs), Decode: d(g.DecodeMs), TimeToFirst: d(g.TimeToFirstMs), StopReason: g.StopReason,
	}
}

// GenStats describe one generation, in the done event and the CLI's
// summary line.
type GenStats struct {
	PromptTokens    int     `json:"prompt_tokens"`
	ReusedTokens    int     `json:"reused_tokens"`
	GeneratedTokens int     `json:"generated_tokens"`
	PrefillMs       float64 `json:"prefill_ms"`
	DecodeMs        float64 `json:"decode_ms"`
	TimeToFirstMs   float64 `json:"ttft_ms"`
	PrefillRate     float64 `json:"prefill_tok_s"`
	DecodeRate      float64 `json:"decode_tok_s"`
	StopReason      string  `json:"stop_reason"`
}

// StatsOf is the GenStats of an engine's result.
func StatsOf(st engine.Stats) GenStats {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return GenStats{
		PromptTokens: st.PromptTokens, ReusedTokens: st.ReusedTokens, GeneratedTokens: st.GeneratedTokens,
		PrefillMs: ms(st.Prefill), DecodeMs: ms(st.Decode), TimeToFirstMs: ms(st.TimeToFirst),
		PrefillRate: st.PrefillRate(), DecodeRate: st.DecodeRate(), StopReason: st.StopReason,
	}
}
