package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Serve answers on ln until Shutdown or Close, with the timeouts a server
// facing the public needs: headers must arrive within ReadTimeout (bodies
// too: readBody), each write within WriteTimeout, and idle keep-alive
// connections close after IdleTimeout (WebSockets have their own pings).
// Like http.Server.Serve it returns http.ErrServerClosed after Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: s.cfg.ReadTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		ErrorLog:          nil,
	}
	s.mu.Lock()
	if s.hs != nil {
		s.mu.Unlock()
		return errors.New("server: Serve called twice")
	}
	s.hs = hs
	s.mu.Unlock()
	return hs.Serve(ln)
}

// Shutdown drains the server: it stops accepting connections and
// requests (new ones get 503 with Retry-After, /ready says 503, queued
// requests are refused the same way so a gateway can send them
// elsewhere), lets the generations that are running finish until ctx
// ends, then cuts those left: each stream still ends properly, a server-
// sent event stream with a final chunk (finish_reason "length") and
// [DONE], a WebSocket request with its done event (stop_reason
// "shutdown"). WebSockets then close with code 1001 and the model is
// freed. It returns ctx's error when generations had to be cut.
func (s *Server) Shutdown(ctx context.Context) error {
	s.activeMu.Lock()
	s.draining.Store(true)
	s.activeMu.Unlock()
	s.mu.Lock()
	l, hs := s.local, s.hs
	s.mu.Unlock()
	if l != nil {
		l.stopQueue(errShuttingDown)
	}
	// Stop accepting at once; Shutdown also waits for the HTTP handlers
	// (streams included) to return, which the cut below bounds.
	httpDone := make(chan struct{})
	hctx, hcancel := context.WithCancel(context.Background())
	defer hcancel()
	go func() {
		defer close(httpDone)
		if hs != nil {
			hs.Shutdown(hctx)
		}
	}()
	var err error
	select {
	case <-s.idleNow():
	case <-ctx.Done():
		err = ctx.Err()
		s.cfg.Logf("drain: the grace period is over; ending the generations still running")
		s.cut(errShutdown)
		select {
		case <-s.idleNow():
		case <-time.After(10 * time.Second):
		}
	}
	// The streams' final events are written; give their handlers a moment
	// to return, then close what is left.
	select {
	case <-httpDone:
	case <-time.After(5 * time.Second):
	}
	for _, c := range s.connections() {
		c.goingAway()
	}
	if hs != nil {
		hs.Close()
	}
	if l != nil {
		return errors.Join(err, l.close())
	}
	return err
}
