package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/gorilla/websocket"
)

// Client speaks the WebSocket protocol from the driver's side: `ember
// remote` uses it, and so do the tests. Requests run concurrently on one
// connection; each call gets the events of its own id.
type Client struct {
	c    *websocket.Conn
	wmu  sync.Mutex
	seq  atomic.Int64
	mu   sync.Mutex
	subs map[string]chan Message
	err  error
	done chan struct{}
	// Progress, when set before the first request, receives model load
	// progress events.
	Progress func(Progress)
}

// Dial connects to a ws:// URL; apiKey may be empty.
func Dial(ctx context.Context, url, apiKey string) (*Client, error) {
	h := http.Header{}
	if apiKey != "" {
		h.Set("Authorization", "Bearer "+apiKey)
	}
	c, resp, err := websocket.DefaultDialer.DialContext(ctx, url, h)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("%s: %v (HTTP %s)", url, err, resp.Status)
		}
		return nil, err
	}
	cl := &Client{c: c, subs: map[string]chan Message{}, done: make(chan struct{})}
	go cl.read()
	return cl, nil
}

func (cl *Client) read() {
	defer close(cl.done)
	for {
		var m Message
		if err := cl.c.ReadJSON(&m); err != nil {
			cl.mu.Lock()
			cl.err = err
			cl.mu.Unlock()
			return
		}
		if m.Type == TypeProgress && m.Progress != nil {
			if cl.Progress != nil {
				cl.Progress(*m.Progress)
			}
			continue
		}
		cl.mu.Lock()
		ch := cl.subs[m.ID]
		cl.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// Close ends the connection.
func (cl *Client) Close() error {
	err := cl.c.Close()
	<-cl.done
	return err
}

func (cl *Client) send(m Message) error {
	cl.wmu.Lock()
	defer cl.wmu.Unlock()
	return cl.c.WriteJSON(m)
}

// call sends m under a fresh id and returns the channel of its events.
func (cl *Client) call(m Message) (string, chan Message, error) {
	id := "c" + strconv.FormatInt(cl.seq.Add(1), 10)
	m.ID = id
	// Unbuffered delivery would let one slow caller stall every other
	// request on the connection, so each gets room for a burst.
	ch := make(chan Message, 256)
	cl.mu.Lock()
	cl.subs[id] = ch
	cl.mu.Unlock()
	if err := cl.send(m); err != nil {
		cl.forget(id)
		return "", nil, err
	}
	return id, ch, nil
}

func (cl *Client) forget(id string) {
	cl.mu.Lock()
	delete(cl.subs, id)
	cl.mu.Unlock()
}

func (cl *Client) closedErr() error {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.err != nil {
		return fmt.Errorf("connection closed: %w", cl.err)
	}
	return errors.New("connection closed")
}

// RemoteError is an error event from the server.
type RemoteError struct {
	Status  int
	Message string
}

func (e *RemoteError) Error() string {
	return fmt.Sprintf("server: %s (status %d)", e.Message, e.Status)
}

// Generate sends a generate request (m.Type and m.ID are set here) and
// calls onToken for each token event until done. When ctx ends it sends a
// cancel and returns the server's stats, stop reason "cancelled".
func (cl *Client) Generate(ctx context.Context, m Message, onToken func(Message)) (*GenStats, error) {
	m.Type = TypeGenerate
	id, ch, err := cl.call(m)
	if err != nil {
		return nil, err
	}
	defer cl.forget(id)
	cancelled := false
	for {
		select {
		case <-ctx.Done():
			if !cancelled {
				cancelled = true
				if err := cl.send(Message{Type: TypeCancel, ID: id}); err != nil {
					return nil, err
				}
			}
			ctx = context.Background() // now wait for the done event
		case <-cl.done:
			return nil, cl.closedErr()
		case ev := <-ch:
			switch ev.Type {
			case TypeToken:
				if onToken != nil {
					onToken(ev)
				}
			case TypeDone:
				return ev.Stats, nil
			case TypeError:
				if cancelled && ev.Status == 404 {
					continue // the cancel crossed the done event
				}
				return nil, &RemoteError{ev.Status, ev.Error}
			}
		}
	}
}

// request sends a one-answer request (models, stats) and waits for it.
func (cl *Client) request(ctx context.Context, typ string) (Message, error) {
	id, ch, err := cl.call(Message{Type: typ})
	if err != nil {
		return Message{}, err
	}
	defer cl.forget(id)
	select {
	case <-ctx.Done():
		return Message{}, ctx.Err()
	case <-cl.done:
		return Message{}, cl.closedErr()
	case ev := <-ch:
		if ev.Type == TypeError {
			return ev, &RemoteError{ev.Status, ev.Error}
		}
		return ev, nil
	}
}

// Stats asks for the server's totals.
func (cl *Client) Stats(ctx context.Context) (*ServerStats, error) {
	m, err := cl.request(ctx, TypeStats)
	if err != nil {
		return nil, err
	}
	return m.Server, nil
}

// Models lists the models the server serves.
func (cl *Client) Models(ctx context.Context) ([]ModelInfo, error) {
	m, err := cl.request(ctx, TypeModels)
	return m.Models, err
}
