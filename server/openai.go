package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"time"

	"github.com/emberllm/ember/engine"
)

// apiHandler is an endpoint that returns its error instead of writing it,
// so every failure gets the same OpenAI error body.
type apiHandler func(w http.ResponseWriter, r *http.Request) error

func (h apiHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := h(w, r); err != nil {
		writeError(w, err)
	}
}

// finishReason maps the engine's stop reason to OpenAI's.
func finishReason(st engine.Stats) *string {
	r := "stop"
	// A generation cut by a server shutting down is a truncated answer,
	// which OpenAI's clients know as "length".
	if st.StopReason == "length" || st.StopReason == "shutdown" {
		r = "length"
	}
	return &r
}

func usageOf(st engine.Stats) *usage {
	return &usage{PromptTokens: st.PromptTokens, CompletionTokens: st.GeneratedTokens, TotalTokens: st.PromptTokens + st.GeneratedTokens}
}

func newID(prefix string) string {
	var b [12]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// decodeRequest reads a generation request strictly and checks what both
// endpoints share.
func (s *Server) decodeRequest(w http.ResponseWriter, r *http.Request, body interface{ common() *commonRequest }) error {
	b, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	if err := decodeStrictBytes(b, body); err != nil {
		return err
	}
	if n := body.common().N; n != nil && *n != 1 {
		return invalid("n must be 1: one choice per request")
	}
	return nil
}

func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request) error {
	var body chatRequest
	if err := s.decodeRequest(w, r, &body); err != nil {
		return err
	}
	msgs, err := messages(body.Messages)
	if err != nil {
		return err
	}
	if body.MaxTokens == nil {
		body.MaxTokens = body.MaxCompletionTokens
	}
	if body.ReasoningEffort != nil && body.Think == nil {
		think := *body.ReasoningEffort != "none"
		body.Think = &think
	}
	req := engine.Request{Messages: msgs}
	g, model, err := s.prepare(r.Context(), body.Model, &body.Options, &req, false)
	if err != nil {
		return err
	}
	id, created := newID("chatcmpl-"), time.Now().Unix()
	chunk := func(choice chatChoice) chatResponse {
		return chatResponse{ID: id, Object: "chat.completion.chunk", Created: created, Model: model, Choices: []chatChoice{choice}}
	}
	if !body.Stream {
		res, err := s.run(r.Context(), g, nil, req, nil, nil)
		if err != nil {
			return err
		}
		msg := &outMessage{Role: "assistant", Content: &res.Text}
		if res.Reasoning != "" {
			msg.ReasoningContent = &res.Reasoning
		}
		c := chunk(chatChoice{Message: msg, FinishReason: finishReason(res.Stats)})
		c.Object, c.Usage = "chat.completion", usageOf(res.Stats)
		writeJSON(w, http.StatusOK, c)
		return nil
	}
	first := true
	return s.stream(w, r, g, req, func(ev engine.Event) any {
		d := &outMessage{}
		if first {
			// The first chunk names the role, as OpenAI's do.
			first, d.Role = false, "assistant"
		}
		if ev.Text != "" {
			d.Content = &ev.Text
		}
		if ev.Reasoning != "" {
			d.ReasoningContent = &ev.Reasoning
		}
		if d.Role == "" && d.Content == nil && d.ReasoningContent == nil {
			return nil
		}
		return chunk(chatChoice{Delta: d})
	}, func(st engine.Stats) []any {
		out := []any{chunk(chatChoice{Delta: &outMessage{}, FinishReason: finishReason(st)})}
		if body.includeUsage() {
			c := chunk(chatChoice{})
			c.Choices, c.Usage = []chatChoice{}, usageOf(st)
			out = append(out, c)
		}
		return out
	})
}

func (s *Server) completions(w http.ResponseWriter, r *http.Request) error {
	var body completionRequest
	if err := s.decodeRequest(w, r, &body); err != nil {
		return err
	}
	req := engine.Request{Prompt: string(body.Prompt), Raw: true}
	g, model, err := s.prepare(r.Context(), body.Model, &body.Options, &req, false)
	if err != nil {
		return err
	}
	id, created := newID("cmpl-"), time.Now().Unix()
	resp := func(text string, finish *string) completionResponse {
		return completionResponse{ID: id, Object: "text_completion", Created: created, Model: model,
			Choices: []completionChoice{{Text: text, FinishReason: finish}}}
	}
	if !body.Stream {
		res, err := s.run(r.Context(), g, nil, req, nil, nil)
		if err != nil {
			return err
		}
		c := resp(res.Text, finishReason(res.Stats))
		c.Usage = usageOf(res.Stats)
		writeJSON(w, http.StatusOK, c)
		return nil
	}
	return s.stream(w, r, g, req, func(ev engine.Event) any {
		if ev.Text == "" {
			return nil
		}
		return resp(ev.Text, nil)
	}, func(st engine.Stats) []any {
		out := []any{resp("", finishReason(st))}
		if body.includeUsage() {
			c := resp("", nil)
			c.Choices, c.Usage = []completionChoice{}, usageOf(st)
			out = append(out, c)
		}
		return out
	})
}

// stream runs a request as server-sent events: chunk turns each token into
// an event (nil: nothing to send), final gives the closing events, and
// [DONE] ends the stream. An error before the first event is a plain
// error response; after it, an error event. Nothing is written once the
// client has gone.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, g generator, req engine.Request,
	chunk func(engine.Event) any, final func(engine.Stats) []any) error {
	out := &sse{w: w, timeout: s.cfg.WriteTimeout}
	res, err := s.run(r.Context(), g, nil, req, func(ev engine.Event) error {
		if c := chunk(ev); c != nil {
			return out.send(c)
		}
		return nil
	}, nil)
	if r.Context().Err() != nil {
		return nil
	}
	if err != nil && !errors.Is(err, errShutdown) {
		out.fail(err)
		return nil
	}
	for _, c := range final(res.Stats) {
		if out.send(c) != nil {
			return nil
		}
	}
	out.done()
	return nil
}

func (s *Server) models() []modelObject {
	s.mu.Lock()
	defer s.mu.Unlock()
	created := s.started.Unix()
	var out []modelObject
	if s.local != nil {
		out = append(out, modelObject{ID: s.local.name, Object: "model", Created: created, OwnedBy: "ember"})
	}
	for _, be := range s.engines {
		out = append(out, modelObject{ID: be.model.ID, Object: "model", Created: created, OwnedBy: "browser"})
	}
	return out
}

func (s *Server) listModels(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, modelList{Object: "list", Data: append([]modelObject{}, s.models()...)})
	return nil
}

func (s *Server) getModel(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	for _, m := range s.models() {
		if m.ID == id {
			writeJSON(w, http.StatusOK, m)
			return nil
		}
	}
	return &statusError{404, "model " + id + " is not served here"}
}
