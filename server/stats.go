package server

import (
	"github.com/emberllm/ember/engine"
	"sync/atomic"
	"time"
)

// counters are the server's totals since it started.
type counters struct {
	requests, completed, cancelled, failed atomic.Int64
	promptTokens, generatedTokens          atomic.Int64
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

// Stats is a snapshot of the server's state and totals.
func (s *Server) Stats() ServerStats {
	s.mu.Lock()
	l := s.local
	st := ServerStats{Connections: len(s.conns), BrowserEngines: len(s.engines)}
	s.mu.Unlock()
	if l != nil {
		st.Model, st.Load = l.name, l.progress()
		st.Busy, st.Queued = l.busy(), l.queued.Load()
		select {
		case <-l.ready:
			st.Parallel = l.size
		default:
		}
	}
	c := &s.stats
	st.Requests, st.Completed, st.Cancelled, st.Failed = c.requests.Load(), c.completed.Load(), c.cancelled.Load(), c.failed.Load()
	st.PromptTokens, st.GeneratedTokens = c.promptTokens.Load(), c.generatedTokens.Load()
	st.UptimeSeconds = time.Since(s.started).Seconds()
	return st
}

// EngineStats is the inverse of genStats, for results a browser engine
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

func genStats(st engine.Stats) GenStats {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return GenStats{
		PromptTokens: st.PromptTokens, ReusedTokens: st.ReusedTokens, GeneratedTokens: st.GeneratedTokens,
		PrefillMs: ms(st.Prefill), DecodeMs: ms(st.Decode), TimeToFirstMs: ms(st.TimeToFirst),
		PrefillRate: st.PrefillRate(), DecodeRate: st.DecodeRate(), StopReason: st.StopReason,
	}
}
