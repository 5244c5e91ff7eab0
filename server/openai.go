package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/emberllm/ember/engine"
	"github.com/emberllm/ember/engine/chat"
)

// apiHandler is an endpoint that returns its error instead of writing it,
// so every failure gets the same OpenAI error body.
type apiHandler func(w http.ResponseWriter, r *http.Request) error

func (h apiHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := h(w, r); err != nil {
		writeError(w, err)
	}
}

// finishReason maps the engine's stop reason to OpenAI's; an answer that
// ended in tool calls finishes with "tool_calls".
func finishReason(st engine.Stats, calls bool) *string {
	r := "stop"
	// A generation cut by a server shutting down is a truncated answer,
	// which OpenAI's clients know as "length".
	switch {
	case st.StopReason == "length" || st.StopReason == "shutdown":
		r = "length"
	case calls:
		r = "tool_calls"
	}
	return &r
}

func newID(prefix string) string {
	var b [12]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// decodeRequest reads a generation request strictly.
func (s *Server) decodeRequest(w http.ResponseWriter, r *http.Request, body any) error {
	b, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	return decodeStrictBytes(b, body)
}

// choiceRequest is one choice's generation: n > 1 runs the request n times,
// seeds one apart.
func choiceRequest(req engine.Request, i int) engine.Request {
	req.Sample.Seed += uint64(i)
	return req
}

func (s *Server) chatCompletions(w http.ResponseWriter, r *http.Request) error {
	var body chatRequest
	if err := s.decodeRequest(w, r, &body); err != nil {
		return err
	}
	if err := body.refused(); err != nil {
		return err
	}
	ignored := body.ignored()
	ignored["modalities"], ignored["verbosity"], ignored["prediction"] = body.Modalities, body.Verbosity, body.Prediction
	msgs, err := messages(body.Messages)
	if err != nil {
		return err
	}
	x, err := body.extras()
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
	g, model, err := s.prepare(r.Context(), body.Model, &body.Options, &req, false, x)
	if err != nil {
		return err
	}
	warn(w, ignoredFields(ignored))
	id, created := newID("chatcmpl-"), time.Now().Unix()
	chunk := func(choice chatChoice) chatResponse {
		return chatResponse{ID: id, Object: "chat.completion.chunk", Created: created, Model: model, Choices: []chatChoice{choice}}
	}
	if !body.Stream {
		resp := chunk(chatChoice{})
		resp.Object, resp.Choices, resp.Usage = "chat.completion", nil, &usage{}
		for i := range x.n {
			res, err := s.run(r.Context(), g, nil, choiceRequest(req, i), nil, nil)
			if err != nil && !errors.Is(err, errShutdown) {
				return err
			}
			resp.Choices = append(resp.Choices, x.chatChoice(i, res))
			resp.Usage.add(res.Stats, i == 0)
		}
		writeJSON(w, http.StatusOK, resp)
		return nil
	}
	// Each choice streams in turn: its deltas (the first names the role),
	// then its finish. Tool calls come whole, each in one delta, once
	// their closing tag is written.
	out := &sse{w: w, timeout: s.cfg.WriteTimeout}
	total := &usage{}
	for i := range x.n {
		first := true
		calls := 0
		var ts *chat.ToolStream
		if x.parse {
			ts = chat.NewToolStream(x.tf, x.chatTools)
		}
		delta := func(text, reasoning string, found []chat.ToolCall, lp *engine.TokenLogprob) error {
			d := &outMessage{}
			if first {
				first, d.Role = false, "assistant"
			}
			if ts != nil {
				var more []chat.ToolCall
				text, more = ts.Feed(text)
				found = append(found, more...)
			}
			if text != "" {
				d.Content = &text
			}
			if reasoning != "" {
				d.ReasoningContent = &reasoning
			}
			d.ToolCalls = callsOut(found, &calls)
			c := chatChoice{Index: i, Delta: d}
			if lp != nil {
				c.Logprobs = x.chatLogprobs([]engine.TokenLogprob{*lp})
			}
			if d.Role == "" && d.Content == nil && d.ReasoningContent == nil && d.ToolCalls == nil && c.Logprobs == nil {
				return nil
			}
			return out.send(chunk(c))
		}
		res, err := s.run(r.Context(), g, nil, choiceRequest(req, i), func(ev engine.Event) error {
			return delta(ev.Text, ev.Reasoning, nil, ev.Logprob)
		}, nil)
		if endStream(r.Context(), out, err) {
			return nil
		}
		if ts != nil {
			text, found := ts.Flush()
			ts = nil
			if delta(text, "", found, nil) != nil {
				return nil
			}
		}
		if out.send(chunk(chatChoice{Index: i, Delta: &outMessage{}, FinishReason: finishReason(res.Stats, calls > 0)})) != nil {
			return nil
		}
		total.add(res.Stats, i == 0)
		if errors.Is(err, errShutdown) {
			break
		}
	}
	last := chunk(chatChoice{})
	last.Usage = total
	endChoices(out, &last, body.includeUsage())
	return nil
}

// chatChoice is a whole answer: its text, the tool calls in it, its
// reasoning and logprobs.
func (x *extras) chatChoice(i int, res *engine.Result) chatChoice {
	content := res.Text
	var calls []chat.ToolCall
	if x.parse {
		content, calls = x.tf.ParseToolCalls(res.Text, x.chatTools)
	}
	msg := &wholeMessage{Role: "assistant", ToolCalls: callsOut(calls, nil)}
	if content != "" || len(calls) == 0 {
		msg.Content = &content
	}
	if res.Reasoning != "" {
		msg.ReasoningContent = &res.Reasoning
	}
	c := chatChoice{Index: i, Message: msg, FinishReason: finishReason(res.Stats, len(calls) > 0)}
	if x.logprobs {
		c.Logprobs = x.chatLogprobs(res.Logprobs)
	}
	return c
}

// add counts a choice's tokens: the prompt once (it is shared).
func (u *usage) add(st engine.Stats, first bool) {
	if first {
		u.PromptTokens = st.PromptTokens
	}
	u.CompletionTokens += st.GeneratedTokens
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
}

// endStream reports whether a choice's generation ended the stream: a
// gone client ends it silently, an error with an error (a plain response
// when nothing was sent); a generation cut by the drain goes on to its
// finish like a finished one.
func endStream(ctx context.Context, out *sse, err error) bool {
	switch {
	case ctx.Err() != nil:
		return true
	case err != nil && !errors.Is(err, errShutdown):
		out.fail(err)
		return true
	}
	return false
}

func (s *Server) completions(w http.ResponseWriter, r *http.Request) error {
	var body completionRequest
	if err := s.decodeRequest(w, r, &body); err != nil {
		return err
	}
	x, err := body.extras()
	if err != nil {
		return err
	}
	req := engine.Request{Prompt: string(body.Prompt), Raw: true}
	g, model, err := s.prepare(r.Context(), body.Model, &body.Options, &req, false, x)
	if err != nil {
		return err
	}
	warn(w, ignoredFields(body.ignored()))
	echo := ""
	if body.Echo {
		echo = string(body.Prompt)
	}
	id, created := newID("cmpl-"), time.Now().Unix()
	resp := func(c completionChoice) completionResponse {
		return completionResponse{ID: id, Object: "text_completion", Created: created, Model: model, Choices: []completionChoice{c}}
	}
	if !body.Stream {
		all := resp(completionChoice{})
		all.Choices, all.Usage = nil, &usage{}
		for i := range x.n {
			res, err := s.run(r.Context(), g, nil, choiceRequest(req, i), nil, nil)
			if err != nil && !errors.Is(err, errShutdown) {
				return err
			}
			c := completionChoice{Index: i, Text: echo + res.Text, FinishReason: finishReason(res.Stats, false)}
			if x.logprobs {
				c.Logprobs = completionLogprobsOf(res.Logprobs, &textOffsets{at: utf8.RuneCountInString(echo)})
			}
			all.Choices = append(all.Choices, c)
			all.Usage.add(res.Stats, i == 0)
		}
		writeJSON(w, http.StatusOK, all)
		return nil
	}
	out := &sse{w: w, timeout: s.cfg.WriteTimeout}
	total := &usage{}
	for i := range x.n {
		offsets := textOffsets{at: utf8.RuneCountInString(echo)}
		if echo != "" {
			if out.send(resp(completionChoice{Index: i, Text: echo})) != nil {
				return nil
			}
		}
		res, err := s.run(r.Context(), g, nil, choiceRequest(req, i), func(ev engine.Event) error {
			c := completionChoice{Index: i, Text: ev.Text}
			if ev.Logprob != nil {
				c.Logprobs = completionLogprobsOf([]engine.TokenLogprob{*ev.Logprob}, &offsets)
			}
			if c.Text == "" && c.Logprobs == nil {
				return nil
			}
			return out.send(resp(c))
		}, nil)
		if endStream(r.Context(), out, err) {
			return nil
		}
		if out.send(resp(completionChoice{Index: i, FinishReason: finishReason(res.Stats, false)})) != nil {
			return nil
		}
		total.add(res.Stats, i == 0)
		if errors.Is(err, errShutdown) {
			break
		}
	}
	last := resp(completionChoice{})
	last.Usage = total
	endChoices(out, &last, body.includeUsage())
	return nil
}

// endChoices ends a stream: the usage chunk (last, without choices) when
// asked for, then [DONE].
func endChoices[C any](out *sse, last *response[C], usage bool) {
	if usage {
		last.Choices = []C{}
		if out.send(last) != nil {
			return
		}
	}
	out.done()
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
