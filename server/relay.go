package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/server/wire"
)

// A browser engine is a WebSocket client that runs a model itself (the
// wasm build in a tab) and registers it here. Requests naming its model are
// relayed to it under ids of the server's own, and its token, done and
// error events are relayed back under the driver's id. The browser speaks
// the same protocol as a driver, from the other side.
type browserEngine struct {
	conn  *wsConn
	model ModelInfo
}

// relayCall is one relayed request waiting for the engine's events.
type relayCall struct {
	events chan Message
	gone   chan struct{} // closed when the caller stops listening
}

var relaySeq atomic.Int64

const (
	defaultRelayContext = 4096
	defaultRelayVocab   = 1 << 20
)

func (s *Server) register(c *wsConn, models []ModelInfo) error {
	if len(models) == 0 {
		return invalid("register needs at least one model")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range models {
		if m.ID == "" || len(m.ID) > 256 {
			return invalid("a registered model needs an id of 1 to 256 bytes")
		}
		if (s.local != nil && s.local.name == m.ID) || s.engineFor(m.ID) != nil {
			return &statusError{409, fmt.Sprintf("model %q is already served here", m.ID)}
		}
		if m.Context < 0 || m.Vocab < 0 {
			return invalid("context and vocab must not be negative")
		}
	}
	for _, m := range models {
		m.OwnedBy = "browser"
		be := &browserEngine{conn: c, model: m}
		s.engines = append(s.engines, be)
		c.mu.Lock()
		c.engines = append(c.engines, be)
		c.mu.Unlock()
	}
	return nil
}

// engineFor finds a registered model; the caller holds s.mu.
func (s *Server) engineFor(id string) *browserEngine {
	for _, be := range s.engines {
		if be.model.ID == id {
			return be
		}
	}
	return nil
}

// unregister drops a closing connection's engines; their pending calls
// end with an error as their listeners see the connection's context end.
func (s *Server) unregister(c *wsConn) {
	s.mu.Lock()
	kept := s.engines[:0]
	for _, be := range s.engines {
		if be.conn != c {
			kept = append(kept, be)
		}
	}
	clear(s.engines[len(kept):])
	s.engines = kept
	s.mu.Unlock()
}

func (c *wsConn) isEngine() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.engines) > 0
}

// deliver hands an engine's event to the relayed call it answers; events
// for calls that have gone (cancelled) are dropped.
func (c *wsConn) deliver(m Message) {
	c.mu.Lock()
	call := c.relays[m.ID]
	c.mu.Unlock()
	if call == nil {
		return
	}
	select {
	case call.events <- m:
	case <-call.gone:
	}
}

func (be *browserEngine) limits(context.Context) (int, int, error) {
	ctxLen, vocab := be.model.Context, be.model.Vocab
	if ctxLen == 0 {
		ctxLen = defaultRelayContext
	}
	if vocab == 0 {
		vocab = defaultRelayVocab
	}
	return ctxLen, vocab, nil
}

// generate relays req to the browser and streams its answer back. A
// cancelled caller sends the engine a cancel and returns at once.
func (be *browserEngine) generate(ctx context.Context, req engine.Request, emit func(engine.Event) error) (*engine.Result, error) {
	c := be.conn
	id := "relay-" + strconv.FormatInt(relaySeq.Add(1), 10)
	call := &relayCall{events: make(chan Message, 64), gone: make(chan struct{})}
	c.mu.Lock()
	c.relays[id] = call
	c.mu.Unlock()
	defer func() {
		close(call.gone)
		c.mu.Lock()
		delete(c.relays, id)
		c.mu.Unlock()
	}()
	out := Message{Type: TypeGenerate, ID: id, Model: be.model.ID, Prompt: req.Prompt, Raw: req.Raw, Options: wire.OptionsOf(req)}
	for _, m := range req.Messages {
		out.Messages = append(out.Messages, WireMessage{Role: m.Role, Content: m.Content, ReasoningContent: m.ReasoningContent})
	}
	if err := c.send(out); err != nil {
		return nil, &statusError{502, "the browser engine is unreachable: " + err.Error()}
	}
	var text, reasoning strings.Builder
	res := &engine.Result{}
	timer := time.NewTimer(c.s.cfg.RelayTimeout)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			c.send(Message{Type: TypeCancel, ID: id})
			res.Stats.StopReason = "cancelled"
			res.Text, res.Reasoning = text.String(), reasoning.String()
			return res, ctx.Err()
		case <-c.ctx.Done():
			return nil, &statusError{502, "the browser engine disconnected"}
		case <-timer.C:
			c.send(Message{Type: TypeCancel, ID: id})
			return nil, &statusError{504, "the browser engine stopped answering"}
		case m := <-call.events:
			timer.Reset(c.s.cfg.RelayTimeout)
			switch m.Type {
			case TypeToken:
				text.WriteString(m.Text)
				reasoning.WriteString(m.Reasoning)
				tok := int32(-1)
				if m.Token != nil {
					tok = *m.Token
					res.Tokens = append(res.Tokens, tok)
				}
				if emit != nil {
					if err := emit(engine.Event{Token: tok, Text: m.Text, Reasoning: m.Reasoning}); err != nil {
						c.send(Message{Type: TypeCancel, ID: id})
						return res, err
					}
				}
			case TypeDone:
				if m.Stats != nil {
					res.Stats = m.Stats.EngineStats()
				}
				res.Text, res.Reasoning = text.String(), reasoning.String()
				return res, nil
			case TypeError:
				status := m.Status
				if status < 400 || status > 599 {
					status = 502
				}
				return nil, &statusError{status, "browser engine: " + m.Error}
			}
		}
	}
}
