package server

import (
	"bufio"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// promSample is one sample line of the text format.
type promSample struct {
	name   string
	labels map[string]string
	value  float64
}

// parseProm reads the text format strictly: every sample belongs to a
// family declared by HELP and TYPE lines before it (a histogram's by its
// _bucket, _sum and _count), label values are quoted, values are numbers.
// It returns the samples and each family's type.
func parseProm(t *testing.T, text string) ([]promSample, map[string]string) {
	t.Helper()
	types := map[string]string{}
	helps := map[string]bool{}
	var out []promSample
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "# HELP "); ok {
			name, help, _ := strings.Cut(rest, " ")
			if help == "" {
				t.Fatalf("HELP without text: %q", line)
			}
			helps[name] = true
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(rest, " ")
			if !helps[name] || types[name] != "" {
				t.Fatalf("TYPE of %s without its HELP, or twice", name)
			}
			types[name] = typ
			continue
		}
		s := promSample{labels: map[string]string{}}
		head, val, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("bad sample line %q", line)
		}
		v, err := strconv.ParseFloat(strings.Replace(val, "+Inf", "Inf", 1), 64)
		if err != nil {
			t.Fatalf("bad value in %q", line)
		}
		s.value = v
		s.name = head
		if i := strings.IndexByte(head, '{'); i >= 0 {
			if !strings.HasSuffix(head, "}") {
				t.Fatalf("bad labels in %q", line)
			}
			s.name = head[:i]
			for _, kv := range strings.Split(head[i+1:len(head)-1], ",") {
				k, q, ok := strings.Cut(kv, "=")
				if !ok || len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
					t.Fatalf("bad label %q in %q", kv, line)
				}
				s.labels[k] = q[1 : len(q)-1]
			}
		}
		family := s.name
		for _, suf := range []string{"_bucket", "_sum", "_count"} {
			if f, ok := strings.CutSuffix(s.name, suf); ok && types[f] == "histogram" {
				family = f
			}
		}
		if types[family] == "" {
			t.Fatalf("sample %s before its family's TYPE", s.name)
		}
		out = append(out, s)
	}
	return out, types
}

// value is the sample of name whose labels include want's, or fails.
func value(t *testing.T, ss []promSample, name string, want ...string) float64 {
	t.Helper()
next:
	for _, s := range ss {
		if s.name != name {
			continue
		}
		for i := 0; i+1 < len(want); i += 2 {
			if s.labels[want[i]] != want[i+1] {
				continue next
			}
		}
		return s.value
	}
	t.Fatalf("no sample %s%v", name, want)
	return 0
}

// scrape gets /metrics without an API key, as a scraper does.
func scrape(t *testing.T, ts *testServer) []promSample {
	t.Helper()
	resp, err := http.Get(ts.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %d %s: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	ss, types := parseProm(t, string(body))
	// What an inference gateway's endpoint picker reads, with the types
	// its protocol gives them.
	for name, typ := range map[string]string{
		"vllm:num_requests_waiting": "gauge", "vllm:num_requests_running": "gauge", "vllm:kv_cache_usage_perc": "gauge",
		"vllm:gpu_cache_usage_perc": "gauge", "vllm:lora_requests_info": "gauge", "vllm:cache_config_info": "gauge",
		"ember_time_to_first_token_seconds": "histogram", "ember_time_per_output_token_seconds": "histogram",
		"ember_request_queue_time_seconds": "histogram", "ember_decode_tokens_per_second": "gauge",
		"ember_generation_tokens_total": "counter",
	} {
		if types[name] != typ {
			t.Fatalf("%s is a %q, want a %s", name, types[name], typ)
		}
	}
	// Histograms: cumulative buckets ending at +Inf, which is the count.
	for name, typ := range types {
		if typ != "histogram" {
			continue
		}
		prev := -1.0
		for _, s := range ss {
			if s.name == name+"_bucket" {
				if s.value < prev {
					t.Fatalf("%s: buckets not cumulative", name)
				}
				prev = s.value
			}
		}
		if inf := value(t, ss, name+"_bucket", "le", "+Inf"); inf != value(t, ss, name+"_count") {
			t.Fatalf("%s: +Inf bucket %g, count %g", name, inf, value(t, ss, name+"_count"))
		}
	}
	return ss
}

// TestServeMetrics: /metrics answers without the API key in Prometheus'
// text format; while a request generates, the endpoint picker's gauges
// say one running and a share of the KV cache held, and one waiting once
// a second request finds every session taken; after both, the counters
// and histograms have counted them.
func TestServeMetrics(t *testing.T) {
	plain, _ := tinyModels(t)
	ts := startServer(t, Config{Parallel: 1, APIKey: "k"}, plain)
	ts.local.pace = 15 * time.Millisecond
	ss := scrape(t, ts)
	if value(t, ss, "vllm:num_requests_running") != 0 || value(t, ss, "vllm:kv_cache_usage_perc") != 0 || value(t, ss, "vllm:num_requests_waiting") != 0 {
		t.Fatal("an idle server reports work")
	}
	if value(t, ss, "vllm:cache_config_info", "num_gpu_blocks", "1") != 1 || value(t, ss, "vllm:lora_requests_info", "max_lora", "0") <= 0 {
		t.Fatal("cache and LoRA info missing")
	}
	const n = 12
	body := `{"prompt":"Once upon","max_tokens":` + strconv.Itoa(n) + `,"ignore_eos":true,"temperature":0,"stream":true}`
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if status, out := ts.post(t, "/v1/completions", body, "Authorization", "Bearer k"); status != 200 {
				t.Errorf("status %d: %s", status, out)
			}
		}()
	}
	waitFor(t, "one request running and one waiting", 10*time.Second, func() bool {
		ss := scrape(t, ts)
		return value(t, ss, "vllm:num_requests_running") == 1 && value(t, ss, "vllm:num_requests_waiting") == 1 &&
			value(t, ss, "vllm:kv_cache_usage_perc") > 0
	})
	wg.Wait()
	ss = scrape(t, ts)
	if got := value(t, ss, "ember_requests_total", "outcome", "completed"); got != 2 {
		t.Fatalf("%g requests completed, want 2", got)
	}
	if got := value(t, ss, "ember_generation_tokens_total"); got != 2*n {
		t.Fatalf("%g tokens generated, want %d", got, 2*n)
	}
	for _, h := range []string{"ember_time_to_first_token_seconds", "ember_time_per_output_token_seconds", "ember_request_queue_time_seconds", "ember_e2e_request_latency_seconds"} {
		if c := value(t, ss, h+"_count"); c != 2 {
			t.Fatalf("%s counted %g requests, want 2", h, c)
		}
	}
	if value(t, ss, "ember_request_queue_time_seconds_sum") <= 0 || value(t, ss, "ember_decode_step_tokens_total") < 2*(n-1) {
		t.Fatal("the second request's wait or the decoded tokens went uncounted")
	}
	if value(t, ss, "vllm:num_requests_running") != 0 || value(t, ss, "vllm:kv_cache_usage_perc") != 0 {
		t.Fatal("a finished request still counts as running")
	}
}
