// Command parity measures how close llama.cpp's own CPU builds come to
// each other on the llama.cpp parity tests' models, and how close ember's
// CPU backend and its WebGPU backend come to them.
//
// The CPU backend sums in the order of llama.cpp's AVX-512 build, bit for
// bit. Any other order differs in the last bits, and on quantized models
// those bits grow: each product's input is rounded to 8-bit steps, and a
// value a last bit away from a step's edge rounds the other way. WebGPU's
// parallel kernels add in another order; so do llama.cpp's builds for
// other x86 CPUs (haswell, sandybridge, sse42, x64, ...). Along ember's
// CPU's greedy path (teacher forcing) it prints two tables. The first
// gives the mean over the steps of the KL divergence KL(ref || other) of
// the next-token distributions, and the share of steps where other's most
// likely token is ref's (gputest.Divergence); gputest.ParityBound is the
// worst of llama.cpp's builds against the one it picks here. The second
// gives the older measure: steps choosing the CPU's token, and the largest
// logit difference over the largest logit.
//
//	go run ./bench/parity                  # every case, every build that loads here
//	go run ./bench/parity -cases quick     # make test's subset
//	go run ./bench/parity -builds haswell  # one build
//
// The cases are oracle.ParityCases (every tiny layout in its weight types,
// on the tests' prompts) and stories260K on oracle.StoriesPrompts. It needs
// the oracle's npm packages (make oracle) on linux, and WebGPU (a Vulkan
// driver; lavapipe will do; -webgpu=false leaves it out).
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/engine/tokenizer"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/gputest"
	"github.com/emberllm/ember/gpu/webgpu"
	"github.com/emberllm/ember/internal/oracle"
)

func main() {
	n := flag.Int("n", 64, "steps: the prompt's, then one a decoded token")
	builds := flag.String("builds", "", "llama.cpp CPU builds to compare with the one it picks here (comma separated; default every one that loads here)")
	cases := flag.String("cases", "all", "all: every parity case (make parity's); quick: make test's subset")
	gpu := flag.Bool("webgpu", true, "measure WebGPU's default kernels against the CPU backend")
	flag.Parse()
	var list []string
	if *builds != "" {
		list = strings.Split(*builds, ",")
	}
	if err := run(*n, list, *cases == "quick", *gpu); err != nil {
		fmt.Fprintln(os.Stderr, "parity:", err)
		os.Exit(1)
	}
}

// testCase is one model and prompt, written out.
type testCase struct {
	name, path string
	prompt     []int32
}

// measured is one case's numbers: ember's CPU decode, llama.cpp's pick
// along its path, WebGPU's replay, and each build's rows.
type measured struct {
	ref    gputest.Decoded
	pick   [][]float64
	webgpu *gputest.Decoded
	builds map[string][][]float64
}

func run(n int, builds []string, quick, withGPU bool) error {
	work, err := os.MkdirTemp("", "ember-parity-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	pick, err := oracle.LoadedBuild(oracle.Dir())
	if err != nil {
		return err
	}
	// The oracle folder with only one CPU build, for each build that runs
	// on this CPU (a build whose instructions it lacks loads nothing).
	all, err := oracle.CPUBuilds()
	if err != nil {
		return err
	}
	dirs := map[string]string{}
	var skipped []string
	for _, b := range all {
		if len(builds) > 0 && !slices.Contains(builds, b) {
			continue
		}
		dir, err := oracle.WithCPUBuild(work, b)
		if err != nil {
			return err
		}
		if got, err := oracle.LoadedBuild(dir); err != nil || got != b {
			skipped = append(skipped, b)
			continue
		}
		dirs[b] = dir
	}
	loaded := slices.Sorted(func(yield func(string) bool) {
		for b := range dirs {
			if !yield(b) {
				return
			}
		}
	})
	fmt.Printf("llama.cpp picks %s here; builds that load alone: %s; that do not: %s\n\n", pick, strings.Join(loaded, ", "), strings.Join(skipped, ", "))

	cases, err := writeCases(work, quick)
	if err != nil {
		return err
	}
	res := make([]measured, len(cases))
	var runs []oracle.Forced
	for i, c := range cases {
		cb := cpu.New(2)
		res[i].ref, err = gputest.Decode(cb, c.path, c.prompt, n, nil)
		cb.Close()
		if err != nil {
			return fmt.Errorf("%s on the CPU: %w", c.name, err)
		}
		runs = append(runs, oracle.Forced{Model: c.path, Prompt: len(c.prompt), IDs: slices.Concat(c.prompt, res[i].ref.Next[:n-1])})
		if withGPU {
			be, err := webgpu.Open(webgpu.Options{})
			if err != nil {
				return err
			}
			got, err := gputest.Decode(be, c.path, c.prompt, n, res[i].ref.Next)
			be.Close()
			if err != nil {
				return fmt.Errorf("%s on WebGPU: %w", c.name, err)
			}
			res[i].webgpu = &got
		}
	}
	// llama.cpp along the CPU's paths, all cases in one process a build.
	rows, err := oracle.LogprobsIn(oracle.Dir(), runs...)
	if err != nil {
		return err
	}
	for i := range res {
		res[i].pick = rows[i]
		res[i].builds = map[string][][]float64{}
	}
	for _, b := range loaded {
		rows, err := oracle.LogprobsIn(dirs[b], runs...)
		if err != nil {
			return err
		}
		for i := range res {
			res[i].builds[b] = rows[i]
		}
	}
	others := slices.DeleteFunc(slices.Clone(loaded), func(b string) bool { return b == pick })
	printDivergence(cases, res, pick, others, withGPU)
	printLogitDiff(cases, res, pick, others, withGPU)
	printIdentical(cases, res, loaded)
	return nil
}

// writeCases writes the parity cases' models into dir, and stories260K's
// prompts where ../shared has it.
func writeCases(dir string, quick bool) ([]testCase, error) {
	var out []testCase
	for _, c := range oracle.ParityCases() {
		if quick && !c.Quick {
			continue
		}
		m := c.Model
		path := filepath.Join(dir, strings.ReplaceAll(m.Name, "/", "-")+".gguf")
		if _, err := os.Stat(path); err != nil {
			if err := synth.WriteFile(path, m.Shape, synth.Arch(m.Arch), m.Type, m.Seed); err != nil {
				return nil, err
			}
		}
		out = append(out, testCase{name: c.Name(), path: path, prompt: c.Prompt})
	}
	shared := oracle.SharedDir()
	if shared == "" {
		fmt.Fprintln(os.Stderr, "parity: ../shared is absent: no stories260K rows")
		return out, nil
	}
	path := filepath.Join(shared, "models", "stories260K.gguf")
	r, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	tok, err := tokenizer.FromGGUF(&r.Metadata)
	r.Close()
	if err != nil {
		return nil, err
	}
	texts := oracle.StoriesPrompts
	if quick {
		texts = texts[:1]
	}
	for _, text := range texts {
		out = append(out, testCase{name: "stories260K/" + text, path: path, prompt: tok.Encode(text, true, false)})
	}
	return out, nil
}

// worst is the largest mean KL and the smallest top-1 share of a column.
type worst struct{ kl, top1 float64 }

func (w *worst) add(kl, top1 float64) {
	w.kl, w.top1 = max(w.kl, kl), min(w.top1, top1)
}

// cell prints a mean KL and a same-top-1 share.
func cell(kl, top1 float64) string { return fmt.Sprintf("%.2e / %.1f%%", kl, 100*top1) }

// printHead prints a table's title and head: the case, first (ember CPU
// and llama.cpp's pick), WebGPU, each other build against the pick. It
// returns the number of columns after the case's.
func printHead(title, first, pick string, others []string, withGPU bool) int {
	fmt.Println(title)
	fmt.Println()
	cols := []string{"case", first}
	if withGPU {
		cols = append(cols, "WebGPU default vs ember CPU")
	}
	for _, b := range others {
		cols = append(cols, b+" vs "+pick)
	}
	fmt.Println("| " + strings.Join(cols, " | ") + " |")
	fmt.Println(strings.Repeat("|---", len(cols)) + "|")
	return len(cols) - 1
}

func printDivergence(cases []testCase, res []measured, pick string, others []string, withGPU bool) {
	cols := printHead("Mean KL(ref || other) over the steps / steps whose most likely token is ref's:", "ember CPU vs llama.cpp "+pick, pick, others, withGPU)
	w := make([]worst, cols)
	for i := range w {
		w[i] = worst{0, 1}
	}
	reverse := worst{0, 1}
	for i, c := range cases {
		r := res[i]
		var kls, top1s []float64
		kl, t := gputest.Divergence(gputest.LogitRows(r.ref.Logits), r.pick, oracle.LogprobTie)
		kls, top1s = append(kls, kl), append(top1s, t)
		if withGPU {
			kl, t := gputest.KL(*r.webgpu, r.ref)
			kls, top1s = append(kls, kl), append(top1s, t)
		}
		for _, b := range others {
			kl, t := gputest.Divergence(r.builds[b], r.pick, oracle.LogprobTie)
			kls, top1s = append(kls, kl), append(top1s, t)
			// The other way round too: where the tests fall back on the
			// bound, the build that loads is the reference and ember,
			// which gives the pick's bits, is held to it.
			rkl, rt := gputest.Divergence(r.pick, r.builds[b], oracle.LogprobTie)
			reverse.add(rkl, rt)
		}
		row := "| " + c.name
		for j := range kls {
			w[j].add(kls[j], top1s[j])
			row += " | " + cell(kls[j], top1s[j])
		}
		fmt.Println(row + " |")
	}
	row := "| **worst**"
	for _, x := range w {
		row += " | **" + cell(x.kl, x.top1) + "**"
	}
	fmt.Println(row + " |")
	// llama.cpp's spread: its builds' worst against its pick, either way.
	spread := worst{0, 1}
	for j := len(w) - len(others); j < len(w); j++ {
		spread.add(w[j].kl, w[j].top1)
	}
	fmt.Printf("\nllama.cpp's builds against %s, worst of all: mean KL %.3g, same first choice on %.1f%% of steps\n", pick, spread.kl, 100*spread.top1)
	fmt.Printf("%s against each build (KL(build || %s)), worst of all: mean KL %.3g, same first choice on %.1f%% of steps\n", pick, pick, reverse.kl, 100*reverse.top1)
	fmt.Printf("gputest.ParityBound: mean KL %.3g, same first choice on %.1f%% of steps\n\n", gputest.ParityBound.MeanKL, 100*gputest.ParityBound.Top1)
}

// diff is one backend's distance from a reference along a token path.
type diff struct {
	agree, steps int     // steps choosing the reference's token, of all
	worst        float64 // largest logit difference over the largest logit
}

func (d diff) String() string { return fmt.Sprintf("%d/%d, %.2e", d.agree, d.steps, d.worst) }

func printLogitDiff(cases []testCase, res []measured, pick string, others []string, withGPU bool) {
	printHead("Steps choosing ember CPU's token, and the largest logit difference over the largest logit:", "llama.cpp "+pick+" vs ember CPU", pick, others, withGPU)
	for i, c := range cases {
		r := res[i]
		row := "| " + c.name + " | " + centred(r.pick, gputest.LogitRows(r.ref.Logits), r.ref).String()
		if withGPU {
			agree, worst := gputest.LogitDiff(*r.webgpu, r.ref)
			row += " | " + diff{agree: agree, steps: len(r.ref.Logits), worst: worst}.String()
		}
		for _, b := range others {
			row += " | " + centred(r.builds[b], r.pick, r.ref).String()
		}
		fmt.Println(row + " |")
	}
	fmt.Println()
}

// printIdentical gives each build's largest log-probability difference
// from llama.cpp's pick (0: the same logits, as the log-probabilities are
// worked out alike from them), and ember CPU's from the pick. ember's can
// only come within the rounding of llama.cpp's single-precision softmax,
// about a unit in the last place of the largest log-probabilities (2e-6
// at -27), so the tiny models, whose log-probabilities are small, and
// stories260K are given apart.
func printIdentical(cases []testCase, res []measured, loaded []string) {
	var same []string
	for _, b := range loaded {
		far := 0.0
		for i := range cases {
			far = max(far, farthest(res[i].builds[b], res[i].pick))
		}
		fmt.Printf("%s: largest log-probability difference from the pick %.2e\n", b, far)
		if far == 0 {
			same = append(same, b)
		}
	}
	fmt.Printf("builds whose log-probabilities are the pick's on every case: %s\n", strings.Join(same, ", "))
	var tiny, stories float64
	for i, c := range cases {
		far := farthest(gputest.LogitRows(res[i].ref.Logits), res[i].pick)
		if strings.HasPrefix(c.name, "stories260K/") {
			stories = max(stories, far)
		} else {
			tiny = max(tiny, far)
		}
	}
	fmt.Printf("ember CPU's largest log-probability difference from the pick: %.2e on the tiny models, %.2e on stories260K\n", tiny, stories)
}

// farthest is the largest difference between a's and b's
// log-probabilities (each row normalised, so logits may stand for them).
func farthest(a, b [][]float64) float64 {
	far := 0.0
	for k := range b {
		x, y := gputest.LogSoftmax(a[k]), gputest.LogSoftmax(b[k])
		for j := range y {
			if !math.IsInf(x[j], -1) && !math.IsInf(y[j], -1) {
				far = max(far, math.Abs(x[j]-y[j]))
			}
		}
	}
	return far
}

// centred is gputest.LogitDiff for log-probabilities: a against b, each
// step's differences taken about their median (log-probabilities are the
// logits less a constant a step), over the largest of ref's logits. A
// step agrees where ref's token is a's most likely, to the LogprobTie
// that llama.cpp's log-probabilities are printed to.
func centred(a, b [][]float64, ref gputest.Decoded) diff {
	d := diff{steps: len(ref.Logits)}
	for k := range ref.Logits {
		tok := ref.Next[k]
		if a[k][tok] >= slices.Max(a[k])-oracle.LogprobTie {
			d.agree++
		}
		var del []float64
		for i := range a[k] {
			if !math.IsInf(a[k][i], -1) && !math.IsInf(b[k][i], -1) {
				del = append(del, a[k][i]-b[k][i])
			}
		}
		slices.Sort(del)
		mid := del[len(del)/2]
		var top float64
		for _, v := range ref.Logits[k] {
			top = max(top, math.Abs(float64(v)))
		}
		for _, v := range del {
			d.worst = max(d.worst, math.Abs(v-mid)/top)
		}
	}
	return d
}
