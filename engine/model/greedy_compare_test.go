package model

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/internal/oracle"
)

// Parity with llama.cpp is checked along llama.cpp's own greedy path:
// ember is fed the tokens llama.cpp chose (teacher forcing), so one
// disagreement does not send the two down different continuations, and at
// every step ember's choice is compared with llama.cpp's.
//
// ember's CPU backend reproduces the arithmetic of one of llama.cpp's CPU
// builds, the AVX-512 one it loads on this project's machines (mirrored):
// the same summation orders, fused multiply-adds, exp/sin/cos
// approximations and roundings, so its logits are normally llama.cpp's bit
// for bit and every choice agrees. A model whose arithmetic is not matched
// yet is named in compareGreedy's tolerated set; for those, the bounds
// below admit a rare flipped choice between near-equal logits and nothing
// larger: a wrong kernel, rope or norm disagrees on most steps and by a
// wide margin.
//
// On a CPU without AVX-512 (or an arm64 one) llama.cpp loads another build,
// which adds in other orders and parts from the mirrored one at near ties
// as any other order does. There the tests hold ember to llama.cpp's own
// spread instead: along ember's greedy path, llama.cpp's next-token
// distributions (teacher forced) must be within gputest.ParityBound of
// ember's, the bound its builds keep from each other. EMBER_ORACLE_BUILD
// (oracle.BuildEnv) takes that path here too:
//
//	EMBER_ORACLE_BUILD=haswell go test ./engine/model
const (
	// minAgree is the fraction of steps where ember's choice must be
	// llama.cpp's.
	minAgree = 0.85
	// maxGap bounds, as a fraction of the spread between the largest and
	// the median logit, how far below ember's choice llama.cpp's may be.
	maxGap = 0.04
)

// mirrored are the llama.cpp CPU builds whose logits the CPU backend gives
// bit for bit: its AVX-512 builds, which give the same log-probabilities
// as each other on every parity case (go run ./bench/parity, on an AMD
// EPYC where llama.cpp picks zen4; sapphirerapids does not load there and
// is left out).
var mirrored = []string{"zen4", "skylakex", "icelake", "cascadelake", "cooperlake", "cannonlake"}

// Parity is what the parity tests take from gpu/gputest: its divergence
// measure and llama.cpp's bound. gputest imports this package, so this
// package's own tests cannot import it; the external test package
// (parity_bound_test.go), which can, fills this in before any test runs.
var Parity struct {
	Divergence func(got, ref [][]float64, tie float64) (meanKL, top1 float64)
	LogitRows  func(logits [][]float32) [][]float64
	Check      func(meanKL, top1 float64) error
}

// parityAll reports whether the tests run every case of
// oracle.ParityCases and every stories prompt (EMBER_PARITY=all, make
// parity) or the quick subset (make test).
func parityAll() bool { return os.Getenv("EMBER_PARITY") == "all" }

// parityCases are the cases of one group that this run takes.
func parityCases(group string) []oracle.ParityCase {
	var out []oracle.ParityCase
	for _, c := range oracle.ParityCases() {
		if c.Group == group && (c.Quick || parityAll()) {
			out = append(out, c)
		}
	}
	return out
}

// compareCases writes the cases' models into dir and compares them with
// llama.cpp, a compareGreedy for each prompt.
func compareCases(t *testing.T, dir string, cases []oracle.ParityCase, far int) {
	t.Helper()
	type group struct {
		prompt       []int32
		names, paths []string
	}
	var groups []*group
	for _, c := range cases {
		path := writeTiny(t, dir, c.Model.Shape, synth.Arch(c.Model.Arch), c.Model.Type, c.Model.Seed)
		i := slices.IndexFunc(groups, func(g *group) bool { return slices.Equal(g.prompt, c.Prompt) })
		if i < 0 {
			groups = append(groups, &group{prompt: c.Prompt})
			i = len(groups) - 1
		}
		groups[i].names = append(groups[i].names, c.Model.Name)
		groups[i].paths = append(groups[i].paths, path)
	}
	for _, g := range groups {
		t.Run(fmt.Sprintf("prompt-of-%d", len(g.prompt)), func(t *testing.T) {
			compareGreedy(t, g.names, g.paths, g.prompt, far, nil)
		})
	}
}

// compareGreedy runs llama.cpp once over every model (64 greedy tokens
// each) and checks ember against each continuation. Models named in
// tolerated may disagree within minAgree and maxGap (the value says why);
// every other model must choose llama.cpp's token at every step. far is
// how many steps of a tolerated model may break maxGap: mixture-of-experts
// models, where a near tie between two experts' router scores can send a
// token to another expert and move the logits a long way, get two in 64.
//
// Where llama.cpp runs a build ember does not mirror, the models are
// compared by divergence instead (compareDivergence).
func compareGreedy(t *testing.T, names, paths []string, prompt []int32, far int, tolerated map[string]string) {
	t.Helper()
	if err := oracle.Available(); err != nil {
		t.Skip(err)
	}
	_, build, err := oracle.Active()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(mirrored, build) {
		compareDivergence(t, build, names, paths, prompt)
		return
	}
	const n = 64
	got, err := oracle.Node("greedy_many.mjs", append([]string{"64", joinIDs(prompt, ",")}, paths...)...)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) != len(paths) {
		t.Fatalf("llama.cpp printed %d lines for %d models:\n%s", len(lines), len(paths), got)
	}
	for i, path := range paths {
		t.Run(names[i], func(t *testing.T) {
			want := parseIDs(t, lines[i])
			if len(want) == 0 {
				t.Fatalf("llama.cpp generated nothing")
			}
			steps := len(want)
			if steps < n {
				steps++ // the step where llama.cpp chose an end token
			}
			ids, logits := emberGreedy(t, path, prompt, steps, want...)
			agree := 0
			for k, id := range ids {
				if k == len(want) {
					// llama.cpp stopped here at an end-of-generation token,
					// which it does not print: ember must end too.
					if !eog(t, path, id) {
						t.Errorf("step %d: llama.cpp ended generation; ember chose %d, not an end token", k, id)
					} else {
						agree++
					}
					continue
				}
				if id == want[k] {
					agree++
					continue
				}
				l := logits[k]
				spread := l[id] - median(l)
				gap := l[id] - l[want[k]]
				if gap > maxGap*spread {
					msg := fmt.Sprintf("step %d: llama.cpp chose %d, which ember scores %.4f below its choice %d (spread %.3f)", k, want[k], gap, id, spread)
					if far--; far < 0 {
						t.Error(msg)
					} else {
						t.Log(msg + ": allowed once (an expert routing tie)")
					}
				}
			}
			frac := float64(agree) / float64(len(ids))
			t.Logf("%d of %d steps choose the token of llama.cpp's %s build", agree, len(ids), build)
			if why, ok := tolerated[names[i]]; !ok && agree != len(ids) {
				t.Errorf("%d of %d steps agree with llama.cpp; this model must agree at every step\n llama: %s\n ember: %s", agree, len(ids), joinIDs(want, " "), joinIDs(ids, " "))
			} else if ok && agree != len(ids) {
				t.Logf("tolerated: %s", why)
			}
			if frac < minAgree {
				t.Errorf("only %d of %d steps agree with llama.cpp\n llama: %s\n ember: %s", agree, len(ids), joinIDs(want, " "), joinIDs(ids, " "))
			}
		})
	}
}

// compareDivergence holds each model to llama.cpp's spread where llama.cpp
// runs build, one ember does not mirror: ember decodes 64 greedy tokens,
// llama.cpp is teacher forced along the same path (one process for all
// models), and the mean KL divergence of ember's next-token distributions
// from llama.cpp's and the share of steps ranking the same token first
// must be within gputest.ParityBound.
func compareDivergence(t *testing.T, build string, names, paths []string, prompt []int32) {
	t.Helper()
	if Parity.Divergence == nil {
		t.Fatal("Parity is unset: parity_bound_test.go sets it from gpu/gputest")
	}
	const n = 64
	logits := make([][][]float32, len(paths))
	runs := make([]oracle.Forced, len(paths))
	for i, path := range paths {
		var ids []int32
		ids, logits[i] = emberGreedy(t, path, prompt, n)
		runs[i] = oracle.Forced{Model: path, Prompt: len(prompt), IDs: slices.Concat(prompt, ids[:n-1])}
	}
	rows, err := oracle.Logprobs(runs...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range paths {
		t.Run(names[i], func(t *testing.T) {
			meanKL, top1 := Parity.Divergence(Parity.LogitRows(logits[i]), rows[i], oracle.LogprobTie)
			t.Logf("against llama.cpp's %s build: mean KL %.3g, same first choice on %.1f%% of %d steps", build, meanKL, 100*top1, n)
			if err := Parity.Check(meanKL, top1); err != nil {
				t.Errorf("against llama.cpp's %s build (which ember does not mirror): %v", build, err)
			}
		})
	}
}

func median(x []float32) float32 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}

func parseIDs(t *testing.T, line string) []int32 {
	t.Helper()
	var out []int32
	for _, f := range strings.Fields(line) {
		var v int32
		for _, c := range f {
			if c < '0' || c > '9' {
				t.Fatalf("llama.cpp printed %q", line)
			}
			v = v*10 + c - '0'
		}
		out = append(out, v)
	}
	return out
}
