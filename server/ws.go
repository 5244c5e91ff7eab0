package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/server/wire"
	"github.com/gorilla/websocket"
)

// writeWait bounds one write, so a client that stops reading cannot hold a
// generation (and its session) forever.
const writeWait = 10 * time.Second

// wsConn is one WebSocket connection: many requests in flight, each under
// its own id and context; closing the connection cancels them all.
type wsConn struct {
	s      *Server
	c      *websocket.Conn
	ctx    context.Context
	cancel context.CancelFunc

	wmu sync.Mutex // gorilla allows one writer at a time

	mu       sync.Mutex
	inflight map[string]context.CancelFunc
	relays   map[string]*relayCall // requests this browser engine runs for others
	engines  []*browserEngine
	wg       sync.WaitGroup
}

func (s *Server) checkOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true // not a browser: nothing to forge
	}
	if slices.Contains(s.cfg.Origins, origin) {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}

func (s *Server) websocket(w http.ResponseWriter, r *http.Request) {
	if !websocket.IsWebSocketUpgrade(r) {
		writeError(w, &statusError{400, "this endpoint speaks WebSocket (docs/protocol.md)"})
		return
	}
	if !s.checkOrigin(r) {
		writeError(w, &statusError{403, "origin " + r.Header.Get("Origin") + " may not use this server"})
		return
	}
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }} // checked above
	c, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c.SetReadLimit(s.cfg.MaxBodyBytes)
	ctx, cancel := context.WithCancel(context.Background())
	conn := &wsConn{s: s, c: c, ctx: ctx, cancel: cancel, inflight: map[string]context.CancelFunc{}, relays: map[string]*relayCall{}}
	s.mu.Lock()
	s.conns[conn] = struct{}{}
	l := s.local
	s.mu.Unlock()
	if l != nil {
		p := l.progress()
		conn.send(Message{Type: TypeProgress, Progress: &p})
	}
	conn.readLoop()
	conn.close()
	conn.wg.Wait()
	s.mu.Lock()
	delete(s.conns, conn)
	s.mu.Unlock()
}

// close cancels every request of the connection and drops it.
func (c *wsConn) close() {
	c.cancel()
	c.s.unregister(c)
	c.c.Close()
}

func (c *wsConn) send(m Message) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.c.SetWriteDeadline(time.Now().Add(writeWait))
	return c.c.WriteJSON(m)
}

func (c *wsConn) sendError(id string, err error) {
	status, msg := statusOf(err)
	c.send(Message{Type: TypeError, ID: id, Status: status, Error: msg})
}

func (c *wsConn) readLoop() {
	for {
		_, data, err := c.c.ReadMessage()
		if err != nil {
			// An oversized message has already been answered by gorilla
			// with close code 1009 (message too big).
			return
		}
		var m Message
		if err := decodeStrictBytes(data, &m); err != nil {
			var probe struct {
				ID string `json:"id"`
			}
			json.Unmarshal(data, &probe)
			c.sendError(probe.ID, err)
			continue
		}
		c.dispatch(m)
	}
}

func (c *wsConn) dispatch(m Message) {
	switch m.Type {
	case TypeGenerate:
		c.generate(m)
	case TypeCancel:
		c.mu.Lock()
		cancel, ok := c.inflight[m.ID]
		c.mu.Unlock()
		if !ok {
			c.sendError(m.ID, &statusError{404, "no request " + m.ID + " is in flight"})
			return
		}
		cancel()
	case TypeModels:
		var out []ModelInfo
		for _, mo := range c.s.models() {
			out = append(out, ModelInfo{ID: mo.ID, OwnedBy: mo.OwnedBy})
		}
		c.send(Message{Type: TypeModels, ID: m.ID, Models: out})
	case TypeStats:
		st := c.s.Stats()
		c.send(Message{Type: TypeStats, ID: m.ID, Server: &st})
	case TypeRegister:
		if err := c.s.register(c, m.Models); err != nil {
			c.sendError(m.ID, err)
			return
		}
		c.send(Message{Type: TypeRegistered, ID: m.ID})
	case TypeToken, TypeDone, TypeError:
		c.deliver(m) // a browser engine answering a relayed request
	case TypeProgress:
		if m.Progress != nil && c.isEngine() {
			c.s.broadcastProgress(*m.Progress)
		}
	case "":
		c.sendError(m.ID, invalid("a message needs a type"))
	default:
		c.sendError(m.ID, invalid("unknown message type %q", m.Type))
	}
}

func (c *wsConn) generate(m Message) {
	if m.ID == "" {
		c.sendError("", invalid("a generate request needs an id"))
		return
	}
	req, err := m.Request()
	if err != nil {
		c.sendError(m.ID, err)
		return
	}
	c.mu.Lock()
	if _, dup := c.inflight[m.ID]; dup {
		c.mu.Unlock()
		c.sendError(m.ID, invalid("request %s is already in flight", m.ID))
		return
	}
	if len(c.inflight) >= c.s.cfg.MaxInflight {
		c.mu.Unlock()
		c.sendError(m.ID, &statusError{429, "too many requests in flight on this connection"})
		return
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.inflight[m.ID] = cancel
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer cancel()
		final := c.runRequest(ctx, m, req)
		c.mu.Lock()
		delete(c.inflight, m.ID)
		c.mu.Unlock()
		// The id is free again before the client hears that it ended.
		c.send(final)
	}()
}

// runRequest generates, streaming tokens, and returns the final event:
// done (also after a cancel, with stop_reason "cancelled") or error.
func (c *wsConn) runRequest(ctx context.Context, m Message, req engine.Request) Message {
	g, _, err := c.s.prepare(ctx, m.Model, m.Options, &req)
	if err == nil {
		var res *engine.Result
		res, err = c.s.run(ctx, g, req, func(ev engine.Event) error {
			out := Message{Type: TypeToken, ID: m.ID, Text: ev.Text, Reasoning: ev.Reasoning}
			if ev.Token >= 0 {
				out.Token = &ev.Token
			}
			return c.send(out)
		})
		if err == nil || ctx.Err() != nil {
			var st GenStats
			if res != nil {
				st = wire.StatsOf(res.Stats)
			}
			if ctx.Err() != nil {
				st.StopReason = "cancelled"
			}
			return Message{Type: TypeDone, ID: m.ID, Stats: &st}
		}
	}
	if ctx.Err() != nil {
		return Message{Type: TypeDone, ID: m.ID, Stats: &GenStats{StopReason: "cancelled"}}
	}
	status, msg := statusOf(err)
	return Message{Type: TypeError, ID: m.ID, Status: status, Error: msg}
}

// broadcastProgress tells every connection how a model load goes.
func (s *Server) broadcastProgress(p Progress) {
	s.mu.Lock()
	conns := make([]*wsConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.send(Message{Type: TypeProgress, Progress: &p})
	}
}
