// Command browser measures ember's engine in a browser tab, for the
// comparison with the native build on the same machine: the time to load
// a model from a local server (the first load downloads it into the
// browser's storage and uploads it to the backend; the second, in a fresh
// page, reads the stored copy), the wasm heap after each load (a wasm
// memory only grows, so that is its peak), the browser's resident memory
// (SwiftShader keeps a WebGPU device's buffers in the GPU process's RAM),
// and prefill and decode tok/s of a prompt of -p tokens and -n generated
// tokens in a KV cache of -p + -n + 1 positions, as `ember bench` times
// them natively:
//
//	go run ./bench/browser -model FILE [-backend webgpu|cpu] [-p 64] [-n 32] [-r 3]
//	ember bench --model FILE --backend webgpu|cpu --threads 1 -p 64 -n 32 -r 3
//
// It builds cmd/wasm, serves it with the page (web/) and the model, and
// drives headless Chromium (Debian's, or EMBER_CHROMIUM) with WebGPU on
// (SwiftShader, its CPU adapter, where there is no GPU). The wasm CPU
// backend runs one thread, so its native counterpart is --threads 1.
//
// Each timed run's prompt starts with another first token than the last
// one's, so that the session keeps only the BOS token of the previous
// prompt's cache and prefills the -p tokens after it, in the chunks the
// native run uses; a first run outside the timing compiles the graphs.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/tokenizer"
	"github.com/emberllm/ember/internal/chromium"
	"github.com/emberllm/ember/internal/stats"
)

func main() {
	model := flag.String("model", "", "the GGUF file to load")
	backend := flag.String("backend", "webgpu", "the tab's backend: webgpu or cpu")
	nPrompt := flag.Int("p", 64, "prompt tokens to prefill")
	nGen := flag.Int("n", 32, "tokens to generate")
	reps := flag.Int("r", 3, "timed runs (0: measure the loads only)")
	timeout := flag.Duration("timeout", 30*time.Minute, "give up after this long")
	flag.Parse()
	if *model == "" {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/browser -model FILE [-backend webgpu|cpu] [-p N] [-n N] [-r N]")
		os.Exit(2)
	}
	if err := run(*model, *backend, *nPrompt, *nGen, *reps, *timeout); err != nil {
		fmt.Fprintln(os.Stderr, "browser:", err)
		os.Exit(1)
	}
}

func run(model, backend string, nPrompt, nGen, reps int, timeout time.Duration) error {
	chrome, err := chromium.Path()
	if err != nil {
		return err
	}
	prompts, err := prompts(model, nPrompt)
	if err != nil {
		return err
	}
	site, err := os.MkdirTemp("", "ember-bench-browser")
	if err != nil {
		return err
	}
	defer os.RemoveAll(site)
	mod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return err
	}
	if err := chromium.Site(filepath.Dir(strings.TrimSpace(string(mod))), site); err != nil {
		return err
	}
	var served atomic.Int64 // bytes of the model sent
	files := http.FileServer(http.Dir(site))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/model.gguf" {
			f, err := os.Open(model)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			defer f.Close()
			st, _ := f.Stat()
			http.ServeContent(&counting{w, &served}, r, "model.gguf", st.ModTime(), f)
			return
		}
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()

	profile, err := os.MkdirTemp("", "ember-bench-profile")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), chromium.Options(chrome, profile, true)...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, timeout)
	defer cancelT()

	fmt.Printf("model %s (%.0f MB), backend %s, -p %d -n %d, KV cache %d positions\n", filepath.Base(model), float64(fileSize(model))/1e6, backend, nPrompt, nGen, nPrompt+nGen+1)
	positions := nPrompt + nGen + 1
	type loaded struct {
		Ms     float64
		Info   map[string]any
		Memory struct{ WasmBytes float64 }
	}
	load := func(what string) (loaded, error) {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.ID("prompt"))); err != nil {
			return loaded{}, err
		}
		before := served.Load()
		l, err := chromedp.Run(ctx, chromedp.Evaluate[loaded](fmt.Sprintf(`(async () => {
			await ember.memory(); // the engine started, outside the timing
			const t0 = performance.now();
			const info = await ember.load("model.gguf", {backend: %q, context: %d});
			const ms = performance.now() - t0;
			return {ms, info, memory: await ember.memory()};
		})()`, backend, positions), chromedp.EvalAwaitPromise))
		if err != nil {
			return l, fmt.Errorf("%s load: %w", what, err)
		}
		fmt.Printf("%s load: %.1f s (the engine says %.1f s for its part), %.0f MB downloaded, wasm memory %.0f MiB, browser Pss %.0f MiB; %v on %v\n",
			what, l.Ms/1000, num(l.Info["load_ms"])/1000, float64(served.Load()-before)/1e6, l.Memory.WasmBytes/(1<<20),
			float64(browserRSS(ctx))/(1<<20), l.Info["backend"], l.Info["adapter"])
		if n, ok := l.Info["notice"].(string); ok && n != "" {
			fmt.Printf("  notice: %s\n", n)
		}
		return l, nil
	}
	if _, err := load("first"); err != nil {
		return err
	}
	if _, err := load("cached"); err != nil {
		return err
	}
	if reps == 0 {
		return nil
	}

	type genStats struct {
		PromptTokens  int     `json:"prompt_tokens"`
		ReusedTokens  int     `json:"reused_tokens"`
		Generated     int     `json:"generated_tokens"`
		PrefillRate   float64 `json:"prefill_tok_s"`
		DecodeRate    float64 `json:"decode_tok_s"`
		TimeToFirstMs float64 `json:"ttft_ms"`
	}
	gen := func(prompt string, n int) (genStats, error) {
		return chromedp.Run(ctx, chromedp.Evaluate[genStats](fmt.Sprintf(`ember.generate({prompt: %q, raw: true, options: {max_tokens: %d, temperature: 0, ignore_eos: true}}).then((r) => r.stats)`,
			prompt, n), chromedp.EvalAwaitPromise))
	}
	if _, err := gen(prompts[1], 2); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	var pre, dec []float64
	for r := range reps {
		st, err := gen(prompts[r%2], nGen)
		if err != nil {
			return err
		}
		fmt.Printf("run %d: prefill %d tokens (%d reused) %.2f tok/s, decode %d tokens %.2f tok/s, first token %.0f ms\n",
			r+1, st.PromptTokens-st.ReusedTokens, st.ReusedTokens, st.PrefillRate, st.Generated, st.DecodeRate, st.TimeToFirstMs)
		pre = append(pre, st.PrefillRate)
		dec = append(dec, st.DecodeRate)
	}
	pm, ps := stats.MeanSD(pre)
	dm, ds := stats.MeanSD(dec)
	fmt.Printf("browser %s: pp%d %.2f ± %.2f tok/s, tg%d %.2f ± %.2f tok/s\n", backend, nPrompt, pm, ps, nGen, dm, ds)
	return nil
}

// prompts returns two texts of nPrompt tokens after the BOS token, with
// different first tokens, from the model's own tokenizer (the one the
// engine in the tab runs).
func prompts(model string, nPrompt int) ([2]string, error) {
	var out [2]string
	r, err := gguf.Open(model)
	if err != nil {
		return out, err
	}
	defer r.Close()
	tok, err := tokenizer.FromGGUF(&r.Metadata)
	if err != nil {
		return out, err
	}
	const story = " Once upon a time there was a little girl who lived in a village near the forest. Every day she walked to the river and sang to the fish, and the fish sang back."
	bos := len(tok.Encode("", true, false))
	for i, lead := range []string{"Once", "Then"} {
		// The longest repetition of the story no longer than nPrompt
		// tokens, found by bisection (a longer text never has fewer).
		text := func(n int) string {
			s := lead + strings.Repeat(story, n/len(story)+1)
			return s[:n]
		}
		lo, hi := 1, 16*nPrompt+16
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if len(tok.Encode(text(mid), true, false))-bos <= nPrompt {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		if n := len(tok.Encode(text(lo), true, false)) - bos; n != nPrompt {
			return out, fmt.Errorf("no text of %d tokens (the nearest has %d)", nPrompt, n)
		}
		out[i] = text(lo)
	}
	return out, nil
}

// browserRSS is the proportional resident memory (Pss) of the browser and
// every process under it (the GPU process holds SwiftShader's buffers),
// from /proc.
func browserRSS(ctx context.Context) int64 {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return 0
	}
	root := c.Browser.Process().Pid
	parent := map[int]int{}
	rss := map[int]int64{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ... with comm possibly holding spaces.
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		parent[pid] = ppid
		// Pss: shared pages divided among the processes sharing them, so
		// the sum over the tree counts each page once.
		roll, err := os.ReadFile(filepath.Join("/proc", e.Name(), "smaps_rollup"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(roll), "\n") {
			if kb, ok := strings.CutPrefix(line, "Pss:"); ok {
				n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
				rss[pid] = n << 10
			}
		}
	}
	var total int64
	for pid, r := range rss {
		for p := pid; p > 1; p = parent[p] {
			if p == root {
				total += r
				break
			}
		}
	}
	return total
}

type counting struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c *counting) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.n.Add(int64(n))
	return n, err
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}
