// Command loadgen drives one or several ember servers (ember serve) with
// concurrent streamed completions and reports throughput and latency:
// aggregate output tokens a second, and percentiles of the time to the
// first token, the time per token after it and the whole request, for
// each number of concurrent streams asked for.
//
//	ember serve --model M --parallel 16 --addr 127.0.0.1:8000 &
//	go run ./bench/loadgen -url http://127.0.0.1:8000 -streams 1,4,16 -max-tokens 64
//
// Several -url (or one comma-separated list) spread the requests round
// robin over the servers, as a load balancer would. The load is bounded:
// -requests per level (default four a stream), each request capped by
// -max-tokens and -timeout; and it stays on this machine: a URL whose
// host is not a loopback address is refused unless -any-host is given.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(1)
	}
}

// config is what a run does.
type config struct {
	servers   []string
	streams   []int
	requests  int
	maxTokens int
	temp      float64
	prompt    string
	model     string
	apiKey    string
	timeout   time.Duration
	warmup    bool
}

func run(args []string) error {
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	var urls stringList
	fs.Var(&urls, "url", "an ember server's base URL, e.g. http://127.0.0.1:8000 (repeatable, or comma-separated)")
	streams := fs.String("streams", "1,4,16", "concurrent streams: a comma-separated list, one level each")
	requests := fs.Int("requests", 0, "requests a level (default: four a stream)")
	maxTokens := fs.Int("max-tokens", 64, "tokens each request generates (ignore_eos: all of them)")
	temp := fs.Float64("temperature", 0, "the requests' sampling temperature (0: greedy; above it, as a chat samples, with the server's default filters)")
	prompt := fs.String("prompt", "Once upon a time", "the prompt (a raw completion)")
	model := fs.String("model", "", "the model field of the requests (default: what the first server serves)")
	apiKey := fs.String("api-key", os.Getenv("EMBER_API_KEY"), "API key (default $EMBER_API_KEY)")
	timeout := fs.Duration("timeout", 10*time.Minute, "the longest one request may take")
	warmup := fs.Bool("warmup", true, "send each server one short request first (compiles its steps)")
	anyHost := fs.Bool("any-host", false, "allow servers that are not on a loopback address")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	c := config{requests: *requests, maxTokens: *maxTokens, temp: *temp, prompt: *prompt, model: *model, apiKey: *apiKey, timeout: *timeout, warmup: *warmup}
	for _, u := range urls {
		if err := checkURL(u, *anyHost); err != nil {
			return err
		}
		c.servers = append(c.servers, strings.TrimRight(u, "/"))
	}
	if len(c.servers) == 0 {
		return errors.New("no server: give -url http://127.0.0.1:PORT")
	}
	for _, s := range strings.Split(*streams, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("-streams %q: want positive counts", *streams)
		}
		c.streams = append(c.streams, n)
	}
	if c.requests < 0 || c.maxTokens < 1 || c.timeout <= 0 {
		return errors.New("-requests, -max-tokens and -timeout must be positive")
	}
	if !(c.temp >= 0 && c.temp <= 100) {
		return fmt.Errorf("-temperature %v: want 0 to 100", c.temp)
	}
	if c.model == "" {
		m, err := servedModel(c, c.servers[0])
		if err != nil {
			return err
		}
		c.model = m
	}
	if c.warmup {
		for _, s := range c.servers {
			if r := request(c, s, 4); r.err != nil {
				return fmt.Errorf("warm-up request to %s: %w", s, r.err)
			}
		}
	}
	var levels []level
	for _, n := range c.streams {
		l := runLevel(c, n)
		levels = append(levels, l)
		if !*asJSON {
			l.print(os.Stdout, len(levels) == 1)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(levels)
	}
	return nil
}

// checkURL refuses what is not an http(s) URL of a loopback host (unless
// any is set).
func checkURL(raw string, any bool) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("-url %q: want http://HOST:PORT", raw)
	}
	if any {
		return nil
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-url %q is not a loopback address: loadgen loads servers on this machine (-any-host to allow others)", raw)
}

// stringList is a repeatable flag whose values may also be comma lists.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*s = append(*s, p)
		}
	}
	return nil
}
