//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/webgpu"
)

// BenchmarkDecodeStep times one decode step of the model at
// $EMBER_BENCH_MODEL (skipped without it) as a whole and with classes of
// kernels left out, so the difference is what that class costs inside the
// step: its own time and the dispatch gaps it brings. The results are
// wrong numbers, the timing is not: no kernel's work depends on values.
// MB/s is the step's weight bytes over its time. Unlike `ember bench`, no
// readback or sampling is timed: the gap between the two is the host's.
// EMBER_BENCH_TOKENS=T times a step of T tokens from position 0 instead
// (a prompt's prefill chunk); EMBER_BENCH_BATCH=N a batch step of N
// sequences, each in its own cache slot at position 64 (serving's decode
// step, engine.Batch); EMBER_BENCH_TOP=K a decode step that also picks the
// K largest logits (a sampled token's candidates, engine/candidates.go).
func BenchmarkDecodeStep(b *testing.B) {
	path := os.Getenv("EMBER_BENCH_MODEL")
	if path == "" {
		b.Skip("EMBER_BENCH_MODEL names no model")
	}
	be := openB(b)
	defer be.Close()
	r, err := gguf.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	m, err := model.Load(r, be)
	if err != nil {
		b.Fatal(err)
	}
	pos, T := 64, 1
	if v := os.Getenv("EMBER_BENCH_TOKENS"); v != "" {
		if T, err = strconv.Atoi(v); err != nil || T < 1 {
			b.Fatalf("EMBER_BENCH_TOKENS=%q: want a token count", v)
		}
		pos = 0
	}
	batch := 0
	if v := os.Getenv("EMBER_BENCH_BATCH"); v != "" {
		if batch, err = strconv.Atoi(v); err != nil || batch < 1 {
			b.Fatalf("EMBER_BENCH_BATCH=%q: want a sequence count", v)
		}
	}
	ctx := pos + T + 1
	cache, err := m.NewCacheRows(ctx, ctx*max(batch, 1))
	if err != nil {
		b.Fatal(err)
	}
	top := 0
	if v := os.Getenv("EMBER_BENCH_TOP"); v != "" {
		if top, err = strconv.Atoi(v); err != nil || top < 1 {
			b.Fatalf("EMBER_BENCH_TOP=%q: want a candidate count", v)
		}
	}
	st, err := m.NewStepTop(cache, T, top)
	params := gpu.Params{Pos: pos}
	if batch > 0 {
		st, err = m.NewBatchStep(cache, batch, 0)
		params = gpu.Params{}
		for i := range batch {
			params.Places = append(params.Places, gpu.Place{Pos: pos, Base: i * ctx})
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	// Every product kernel: the plain and the fused matmuls.
	isMat := func(n string) bool { return strings.HasPrefix(n, "matmul") }
	// The output head is the product of the most workgroups.
	head := 0
	webgpu.KeepKernels(st.Program, func(n string, g int) bool {
		if isMat(n) {
			head = max(head, g)
		}
		return false
	})
	type class struct {
		name string
		keep func(n string, g int) bool
	}
	// only-NAME runs just the kernels of one file: their own time, with
	// the kernels of the other files no longer between them. without-NAME
	// runs all but those: the step's time less theirs is what they add to
	// the step's chain of dependent dispatches, which is the measure for
	// kernels bound by their latency rather than by memory.
	var only []class
	seen := map[string]bool{}
	// twice-NAME/gG runs every kernel, those of NAME with G workgroups
	// twice in a row: the step's time less the whole step's is what those
	// add to the chain of dependent dispatches (latency and barrier), the
	// measure llama.cpp's GGML_VK_PERF_LOGGER gives per op.
	type shape struct {
		name string
		g    int
	}
	var twice []shape
	seenShape := map[shape]bool{}
	webgpu.KeepKernels(st.Program, func(n string, g int) bool {
		if !seen[n] {
			seen[n] = true
			only = append(only,
				class{"only-" + n, func(m string, _ int) bool { return m == n }},
				class{"without-" + n, func(m string, _ int) bool { return m != n }})
		}
		if s := (shape{n, g}); !seenShape[s] {
			seenShape[s] = true
			twice = append(twice, s)
		}
		return false
	})
	for _, s := range twice {
		only = append(only, class{fmt.Sprintf("twice-%s/g%d", s.name, s.g), func(m string, g int) bool { return m == s.name && g == s.g }})
	}
	for _, c := range append([]class{
		{"all", func(string, int) bool { return true }},
		{"products", func(n string, g int) bool { return isMat(n) }},
		{"products-no-head", func(n string, g int) bool { return isMat(n) && g != head }},
		{"head", func(n string, g int) bool { return isMat(n) && g == head }},
		{"no-products", func(n string, g int) bool { return !isMat(n) }},
		{"no-attention", func(n string, g int) bool { return !strings.HasPrefix(n, "attention") }},
		{"no-quantize_act", func(n string, g int) bool { return n != "quantize_act" }},
		{"no-rmsnorm", func(n string, g int) bool { return n != "rmsnorm_round" && n != "rmsnorm" }},
	}, only...) {
		b.Run(c.name, func(b *testing.B) {
			p := webgpu.KeepKernels(st.Program, c.keep)
			if strings.HasPrefix(c.name, "twice-") {
				p = webgpu.RepeatKernels(st.Program, c.keep)
			}
			b.SetBytes(m.DecodeBytes())
			for range 3 {
				if err := p.Run(params); err != nil {
					b.Fatal(err)
				}
			}
			if err := be.Sync(); err != nil {
				b.Fatal(err)
			}
			// "all" waits for each step, as a step whose token the host
			// reads back does; the classes are queued (a wait every eight
			// steps), so that a class of a few short kernels is timed on
			// the device rather than by the host's submit and wait.
			wait := 1
			if c.name != "all" {
				wait = 8
			}
			b.ResetTimer()
			host := timeSteps(b, be, p, params, wait)
			b.ReportMetric(float64(p.Kernels()), "kernels")
			b.ReportMetric(float64(host.Microseconds())/float64(b.N), "host-µs/op")
		})
	}
	// timeline times each kernel of the step on the device (a timestamp
	// between kernels, each in a pass of its own) and prints, per kernel
	// file and workgroup count, the dispatches a step makes and their
	// mean and total time, largest total first: the table llama.cpp's
	// GGML_VK_PERF_LOGGER prints for its ops. A kernel alone in its pass
	// starts cold and waits out all its own latency, so the times
	// overstate a latency-bound kernel's share of the queued step
	// (GLM's decode kernels sum to about 2.5 times the queued step on an
	// H100): what a kernel costs inside the step is twice-NAME's and
	// without-NAME's difference from all-queued.
	b.Run("timeline", func(b *testing.B) {
		sum := map[shape]time.Duration{}
		count := map[shape]int{}
		var total time.Duration
		steps := 0
		for b.Loop() {
			ks, err := webgpu.KernelTimes(be, st.Program, params)
			if err != nil {
				b.Skip(err)
			}
			for _, k := range ks {
				s := shape{k.Name, k.Groups}
				sum[s] += k.Time
				count[s]++
				total += k.Time
			}
			steps++
		}
		var shapes []shape
		for s := range sum {
			shapes = append(shapes, s)
		}
		sort.Slice(shapes, func(i, j int) bool { return sum[shapes[i]] > sum[shapes[j]] })
		var out strings.Builder
		fmt.Fprintf(&out, "timeline of %s: %.1f µs a step, %d steps\n", path, float64(total.Nanoseconds())/1e3/float64(steps), steps)
		for _, s := range shapes {
			n := count[s] / steps
			per := float64(sum[s].Nanoseconds()) / 1e3 / float64(count[s])
			fmt.Fprintf(&out, "  %-22s g%-7d %4d x %7.2f µs = %8.1f µs\n", s.name, s.g, n, per, per*float64(n))
		}
		fmt.Print(out.String())
		b.ReportMetric(float64(total.Microseconds())/float64(steps), "µs-timed/op")
	})
	// queued submits steps without waiting for each (as chained greedy
	// decoding does), so its time per step is the larger of the host's
	// encoding and the device's work rather than their sum.
	b.Run("all-queued", func(b *testing.B) {
		b.SetBytes(m.DecodeBytes())
		timeSteps(b, be, st.Program, params, 8)
	})
}

// timeSteps runs p b.N times, waiting for the device after every wait
// steps and once at the end, and returns the host's time in Run (encoding
// and submitting). A b.N loop rather than b.Loop, whose timer stops when it
// ends: the steps queued after the last wait inside it went untimed (a
// fifth of them at -benchtime 10x or 20x).
func timeSteps(b *testing.B, be gpu.Backend, p gpu.Program, params gpu.Params, wait int) time.Duration {
	var host time.Duration
	for i := range b.N {
		t0 := time.Now()
		if err := p.Run(params); err != nil {
			b.Fatal(err)
		}
		host += time.Since(t0)
		if (i+1)%wait == 0 {
			if err := be.Sync(); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := be.Sync(); err != nil {
		b.Fatal(err)
	}
	return host
}
