package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// One streamed completion, timed: when it was sent, when its first token
// arrived, when it ended, and how many tokens it generated (the usage the
// server reports in its last chunk).

// result is one request's timing.
type result struct {
	server int
	start  time.Time
	first  time.Duration // to the first token
	total  time.Duration // to the end of the stream
	tokens int
	err    error
}

// client is shared by every request: one keep-alive connection a stream.
var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}}

// request sends one streamed completion of maxTokens tokens to server.
func request(c config, server string, maxTokens int) result {
	body, _ := json.Marshal(map[string]any{
		"model": c.model, "prompt": c.prompt, "max_tokens": maxTokens, "temperature": c.temp, "ignore_eos": true,
		"stream": true, "stream_options": map[string]bool{"include_usage": true},
	})
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	r := result{start: time.Now()}
	req, err := http.NewRequestWithContext(ctx, "POST", server+"/v1/completions", bytes.NewReader(body))
	if err != nil {
		r.err = err
		return r
	}
	req.Header.Set("Content-Type", "application/json")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := client.Do(req)
	if err != nil {
		r.err = err
		return r
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		r.err = fmt.Errorf("status %d: %s", resp.StatusCode, strings.TrimSpace(string(msg)))
		return r
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		if data == "[DONE]" {
			r.total = time.Since(r.start)
			if r.tokens == 0 {
				r.err = fmt.Errorf("the stream reported no usage")
			}
			return r
		}
		var chunk struct {
			Choices []struct {
				Text string `json:"text"`
			} `json:"choices"`
			Usage *struct {
				CompletionTokens int `json:"completion_tokens"`
			} `json:"usage"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			r.err = fmt.Errorf("bad chunk %q: %w", data, err)
			return r
		}
		if chunk.Error != nil {
			r.err = fmt.Errorf("server error: %s", chunk.Error.Message)
			return r
		}
		if r.first == 0 && len(chunk.Choices) > 0 {
			r.first = time.Since(r.start)
		}
		if chunk.Usage != nil {
			r.tokens = chunk.Usage.CompletionTokens
		}
	}
	if r.err = sc.Err(); r.err == nil {
		r.err = fmt.Errorf("the stream ended without [DONE]")
	}
	return r
}

// servedModel asks server which model it serves (the first of
// /v1/models).
func servedModel(c config, server string) (string, error) {
	req, err := http.NewRequest("GET", server+"/v1/models", nil)
	if err != nil {
		return "", err
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil || len(list.Data) == 0 {
		return "", fmt.Errorf("%s/v1/models names no model (status %d)", server, resp.StatusCode)
	}
	return list.Data[0].ID, nil
}
