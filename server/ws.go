package server

import (
	"context"
	"encoding/json"
	"errors"
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
	go conn.ping()
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
	c.c.SetWriteDeadline(time.Now().Add(c.s.cfg.WriteTimeout))
	return c.c.WriteJSON(m)
}

// ping keeps the connection's idle timer honest: a ping every half of
// IdleTimeout, which a live client answers (browsers and gorilla do by
// themselves); a connection that sends nothing, pongs included, for
// IdleTimeout is closed by readLoop's deadline.
func (c *wsConn) ping() {
	t := time.NewTicker(c.s.cfg.IdleTimeout / 2)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
			if c.c.WriteControl(websocket.PingMessage, nil, time.Now().Add(c.s.cfg.WriteTimeout)) != nil {
				return
			}
		}
	}
}

// goingAway ends the connection with close code 1001 (a drained server).
func (c *wsConn) goingAway() {
	c.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "the server is shutting down"),
		time.Now().Add(time.Second))
	c.close()
}

// discard reads and drops what the client still sends after an oversized
// message, until it goes quiet. gorilla has already sent close code 1009;
// closing at once would leave the rest of the message unread, and the
// kernel would answer it with a reset that can reach the client before
// the close frame (which the client then reports as 1006). A client that
// has finished writing reads the close frame, answers it and stops.
func (c *wsConn) discard() {
	nc := c.c.NetConn()
	buf := make([]byte, 32<<10)
	end := time.Now().Add(10 * time.Second)
	for n := 0; n < 256<<20 && time.Now().Before(end); {
		nc.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
		k, err := nc.Read(buf)
		n += k
		if err != nil {
			return
		}
	}
}

func (c *wsConn) sendError(id string, err error) {
	status, msg := statusOf(err)
	c.send(Message{Type: TypeError, ID: id, Status: status, Error: msg})
}

func (c *wsConn) readLoop() {
	idle := c.s.cfg.IdleTimeout
	c.c.SetReadDeadline(time.Now().Add(idle))
	c.c.SetPongHandler(func(string) error { return c.c.SetReadDeadline(time.Now().Add(idle)) })
	for {
		kind, data, err := c.c.ReadMessage()
		if err != nil {
			if errors.Is(err, websocket.ErrReadLimit) {
				c.discard()
			}
			return
		}
		c.c.SetReadDeadline(time.Now().Add(idle))
		var m Message
		if kind == websocket.TextMessage {
			err = checkUTF8(data)
		}
		if err == nil {
			err = decodeStrictBytes(data, &m)
		}
		if err != nil {
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
	c.mu.Unlock()
	// The request takes its place in the local model's queue now, as its
	// message is read, so requests run in the order they were sent.
	g, _, err := c.s.pick(m.Model)
	var t *ticket
	if l, ok := g.(*local); ok && err == nil {
		t, err = l.enqueue()
	}
	if err != nil {
		c.sendError(m.ID, err)
		return
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.mu.Lock()
	c.inflight[m.ID] = cancel
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer cancel()
		c.runRequest(ctx, m, req, t)
	}()
}

// runRequest generates, streaming tokens, and sends the final event: done
// (also after a cancel, with stop_reason "cancelled", and when a drain
// cuts it, "shutdown") or error. The final event goes out before the
// session serves the next request in the queue, and after the id is free
// again.
func (c *wsConn) runRequest(ctx context.Context, m Message, req engine.Request, t *ticket) {
	sent := false
	end := func(res *engine.Result, err error) {
		sent = true
		c.mu.Lock()
		delete(c.inflight, m.ID)
		c.mu.Unlock()
		c.send(c.final(ctx, m.ID, res, err))
	}
	g, _, err := c.s.prepare(ctx, m.Model, m.Options, &req, true, nil)
	if err != nil {
		if t != nil {
			t.cancel()
		}
		end(nil, err)
		return
	}
	res, err := c.s.run(ctx, g, t, req, func(ev engine.Event) error {
		out := Message{Type: TypeToken, ID: m.ID, Text: ev.Text, Reasoning: ev.Reasoning}
		if ev.Token >= 0 {
			out.Token = &ev.Token
		}
		return c.send(out)
	}, end)
	if !sent {
		end(res, err)
	}
}

// final is a request's last event.
func (c *wsConn) final(ctx context.Context, id string, res *engine.Result, err error) Message {
	var st GenStats
	if res != nil {
		st = wire.StatsOf(res.Stats)
	}
	switch {
	case errors.Is(err, errShutdown):
		st.StopReason = "shutdown"
	case ctx.Err() != nil:
		st.StopReason = "cancelled"
	case err != nil:
		status, msg := statusOf(err)
		return Message{Type: TypeError, ID: id, Status: status, Error: msg}
	}
	return Message{Type: TypeDone, ID: id, Stats: &st}
}

// connections is a snapshot of the open WebSockets.
func (s *Server) connections() []*wsConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	conns := make([]*wsConn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	return conns
}

// broadcastProgress tells every connection how a model load goes.
func (s *Server) broadcastProgress(p Progress) {
	for _, c := range s.connections() {
		c.send(Message{Type: TypeProgress, Progress: &p})
	}
}
