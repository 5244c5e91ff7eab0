package server

import (
	"sync/atomic"
	"time"
)

// counters are the server's totals since it started.
type counters struct {
	requests, completed, cancelled, failed atomic.Int64
	promptTokens, generatedTokens          atomic.Int64
}

// Stats is a snapshot of the server's state and totals.
func (s *Server) Stats() ServerStats {
	s.mu.Lock()
	l := s.local
	st := ServerStats{Connections: len(s.conns), BrowserEngines: len(s.engines)}
	s.mu.Unlock()
	if l != nil {
		st.Model, st.Load = l.name, l.progress()
		st.Busy, st.Queued = l.busy(), int64(l.queued())
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
