package main

import (
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// A level: a number of concurrent streams, each sending its next request
// as soon as its last ends, until the level's requests are sent; then
// what they measured.

// level is one level's measurements (seconds; tokens a second).
type level struct {
	Streams   int     `json:"streams"`
	Requests  int     `json:"requests"`
	Errors    int     `json:"errors"`
	FirstErr  string  `json:"first_error,omitempty"`
	Seconds   float64 `json:"seconds"`
	Tokens    int     `json:"tokens"`
	TokensSec float64 `json:"tokens_per_second"`
	// PerStream is TokensSec over Streams: what one stream sees.
	PerStream float64 `json:"tokens_per_second_per_stream"`
	TTFT      pcts    `json:"ttft"`
	TPOT      pcts    `json:"tpot"`
	Latency   pcts    `json:"latency"`
	PerServer []int   `json:"requests_per_server"`
}

// pcts are percentiles of a latency, in seconds.
type pcts struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
}

// runLevel runs streams concurrent streams through the level's requests,
// spread round robin over the servers.
func runLevel(c config, streams int) level {
	n := c.requests
	if n == 0 {
		n = 4 * streams
	}
	results := make([]result, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				s := i % len(c.servers)
				results[i] = request(c, c.servers[s], c.maxTokens)
				results[i].server = s
			}
		}()
	}
	wg.Wait()
	return summarize(results, streams, len(c.servers), time.Since(start))
}

// summarize turns a level's results into its measurements.
func summarize(rs []result, streams, servers int, wall time.Duration) level {
	l := level{Streams: streams, Requests: len(rs), Seconds: wall.Seconds(), PerServer: make([]int, servers)}
	var ttft, tpot, lat []float64
	for _, r := range rs {
		l.PerServer[r.server]++
		if r.err != nil {
			if l.Errors++; l.FirstErr == "" {
				l.FirstErr = r.err.Error()
			}
			continue
		}
		l.Tokens += r.tokens
		ttft = append(ttft, r.first.Seconds())
		lat = append(lat, r.total.Seconds())
		if r.tokens > 1 {
			tpot = append(tpot, (r.total-r.first).Seconds()/float64(r.tokens-1))
		}
	}
	if l.Seconds > 0 {
		l.TokensSec = float64(l.Tokens) / l.Seconds
		l.PerStream = l.TokensSec / float64(streams)
	}
	l.TTFT, l.TPOT, l.Latency = percentiles(ttft), percentiles(tpot), percentiles(lat)
	return l
}

// percentiles are the nearest-rank 50th, 90th and 99th of xs.
func percentiles(xs []float64) pcts {
	if len(xs) == 0 {
		return pcts{}
	}
	s := slices.Sorted(slices.Values(xs))
	at := func(p float64) float64 {
		i := int(p/100*float64(len(s))+0.999999) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return pcts{at(50), at(90), at(99)}
}

// print writes the level as a row of a Markdown table (its header first
// when head is set).
func (l level) print(w io.Writer, head bool) {
	if head {
		fmt.Fprintln(w, "| streams | requests | errors | tok/s | tok/s a stream | TTFT p50/p90/p99 ms | per token p50/p90/p99 ms | latency p50/p99 s |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	}
	ms := func(p pcts) string { return fmt.Sprintf("%.1f / %.1f / %.1f", 1e3*p.P50, 1e3*p.P90, 1e3*p.P99) }
	fmt.Fprintf(w, "| %d | %d | %d | %.1f | %.1f | %s | %s | %.2f / %.2f |\n", l.Streams, l.Requests, l.Errors, l.TokensSec, l.PerStream,
		ms(l.TTFT), ms(l.TPOT), l.Latency.P50, l.Latency.P99)
	if l.Errors > 0 {
		fmt.Fprintf(w, "first error: %s\n", l.FirstErr)
	}
}
