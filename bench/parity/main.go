// Command parity measures how close ember's WebGPU backend comes to its CPU
// backend on the tiny synthetic models of the parity tests, beside how
// close llama.cpp's own CPU builds come to each other on the same files.
//
// The CPU backend sums in the order of llama.cpp's AVX-512 build, bit for
// bit. Any other order differs in the last bits, and on quantized models
// those bits grow: each product's input is rounded to 8-bit steps, and a
// value a last bit away from a step's edge rounds the other way. WebGPU's
// parallel kernels add in another order; so do llama.cpp's builds for
// older x86 CPUs (haswell, sandybridge, sse42, x64). The table puts the two
// differences side by side, in the parity tests' measure: the share of
// steps that choose the CPU's token, and the largest logit difference over
// the largest logit.
//
//	go run ./bench/parity                 # every tiny model, llama.cpp's x86 builds
//	go run ./bench/parity -builds haswell # one build
//
// llama.cpp gives log-probabilities, not logits: they differ from the
// logits by a constant a step, so its differences are taken about their
// median (for ember's backends the two measures agree within a few
// percent). It needs the oracle's npm packages (make oracle) on
// linux/amd64, and WebGPU (a Vulkan driver; lavapipe will do).
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/gputest"
	"github.com/emberllm/ember/gpu/webgpu"
	"github.com/emberllm/ember/internal/oracle"
)

// tinyModel is one of TestModelParityWithCPU's models (gpu/webgpu), with
// its seed, so the table measures the same files.
type tinyModel struct {
	shape string
	arch  synth.Arch
	typ   string
	seed  uint64
}

var models = []tinyModel{
	{"tiny", synth.Llama, "F32", 40},
	{"tiny", synth.Llama, "Q4_0", 41},
	{"tiny", synth.Qwen3, "Q8_0", 42},
	{"tiny", synth.Qwen3MoE, "Q4_K", 43},
	{"tiny", synth.OLMoE, "Q6_K", 44},
	{"tiny", synth.DeepSeek2, "Q8_0", 45},
	{"tiny-glm", "", "Q4_0", 46},
	{"tiny", synth.Youtu, "F16", 47},
}

func main() {
	n := flag.Int("n", 64, "steps: the prompt's, then one a decoded token")
	builds := flag.String("builds", "haswell,sandybridge,sse42,x64", "llama.cpp CPU builds to compare with the one it picks here")
	flag.Parse()
	if err := run(*n, strings.Split(*builds, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "parity:", err)
		os.Exit(1)
	}
}

// diff is one backend's distance from a reference along a token path.
type diff struct {
	agree, steps int     // steps choosing the reference's token, of all
	worst        float64 // largest logit difference over the largest logit
}

func (d diff) String() string { return fmt.Sprintf("%d/%d, %.2e", d.agree, d.steps, d.worst) }

func run(n int, builds []string) error {
	work, err := os.MkdirTemp("", "ember-parity-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	// The oracle folder with only one CPU build, for each build.
	dirs := map[string]string{}
	for _, b := range builds {
		if dirs[b], err = oracle.WithCPUBuild(work, b); err != nil {
			return err
		}
	}
	// The parity tests' prompt: five ids below 256 (randomPrompt(21, 5)).
	rng := rand.New(rand.NewPCG(21, 5))
	prompt := make([]int32, 5)
	for i := range prompt {
		prompt[i] = int32(rng.IntN(256))
	}
	head := "| model | llama.cpp's pick vs ember CPU | WebGPU exact vs ember CPU | WebGPU default vs ember CPU |"
	for _, b := range builds {
		head += " llama.cpp " + b + " vs its pick |"
	}
	fmt.Println(head)
	fmt.Println(strings.Repeat("|---", 4+len(builds)) + "|")
	for _, m := range models {
		name := fmt.Sprintf("%s-%s-%s", m.shape, m.arch, m.typ)
		path := filepath.Join(work, name+".gguf")
		if err := synth.WriteFile(path, m.shape, m.arch, m.typ, m.seed); err != nil {
			return err
		}
		cb := cpu.New(2)
		ref, err := gputest.Decode(cb, path, prompt, n, nil)
		cb.Close()
		if err != nil {
			return fmt.Errorf("%s on the CPU: %w", name, err)
		}
		row := "| " + name
		// llama.cpp along the CPU's path: its pick here, then each build.
		ids := slices.Concat(prompt, ref.Next[:n-1])
		pick, err := logprobs(oracle.Dir(), path, len(prompt), ids, n)
		if err != nil {
			return err
		}
		row += " | " + centred(pick, toLogprobs(ref.Logits), ref).String()
		for _, exact := range []bool{true, false} {
			be, err := webgpu.Open(webgpu.Options{Exact: exact})
			if err != nil {
				return err
			}
			got, err := gputest.Decode(be, path, prompt, n, ref.Next)
			be.Close()
			if err != nil {
				return fmt.Errorf("%s on WebGPU: %w", name, err)
			}
			row += " | " + logitDiff(got, ref).String()
		}
		for _, b := range builds {
			lp, err := logprobs(dirs[b], path, len(prompt), ids, n)
			if err != nil {
				return err
			}
			row += " | " + centred(lp, pick, ref).String()
		}
		fmt.Println(row + " |")
	}
	return nil
}

// logitDiff is the parity tests' measure of got against ref.
func logitDiff(got, ref gputest.Decoded) diff {
	agree, worst := gputest.LogitDiff(got, ref)
	return diff{agree: agree, steps: len(ref.Logits), worst: worst}
}

// centred is gputest.LogitDiff for log-probabilities: a against b, each step's
// differences taken about their median (the log-probabilities are the
// logits less a constant a step), over the largest of ref's logits. A
// step agrees where ref's token is a's most likely, to the 1e-7 that
// llama.cpp's log-probabilities are printed to.
func centred(a, b [][]float64, ref gputest.Decoded) diff {
	d := diff{steps: len(ref.Logits)}
	for k := range ref.Logits {
		tok := ref.Next[k]
		if a[k][tok] >= slices.Max(a[k])-2e-7 {
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
		top := largest(ref.Logits[k])
		for _, v := range del {
			d.worst = max(d.worst, math.Abs(v-mid)/top)
		}
	}
	return d
}

func largest(l []float32) float64 {
	var top float64
	for _, v := range l {
		top = max(top, math.Abs(float64(v)))
	}
	return top
}

// toLogprobs is the log-softmax of each step's logits, in float64.
func toLogprobs(logits [][]float32) [][]float64 {
	out := make([][]float64, len(logits))
	for k, l := range logits {
		m := float64(slices.Max(l))
		var s float64
		for _, v := range l {
			s += math.Exp(float64(v) - m)
		}
		c := m + math.Log(s)
		out[k] = make([]float64, len(l))
		for i, v := range l {
			out[k][i] = float64(v) - c
		}
	}
	return out
}

// logprobs runs llama.cpp (the oracle folder dir) along ids, the first
// plen as one batch: n rows of log-probabilities.
func logprobs(dir, path string, plen int, ids []int32, n int) ([][]float64, error) {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	out, err := oracle.NodeIn(dir, "logprobs.mjs", path, strconv.Itoa(plen), strings.Join(s, ","))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != n {
		return nil, fmt.Errorf("llama.cpp (%s) gave %d rows of log-probabilities for %s, want %d", dir, len(lines), filepath.Base(path), n)
	}
	rows := make([][]float64, n)
	for k, line := range lines {
		for _, f := range strings.Fields(line) {
			v := math.Inf(-1)
			if f != "-inf" {
				var err error
				if v, err = strconv.ParseFloat(f, 64); err != nil {
					return nil, fmt.Errorf("llama.cpp's log-probabilities: %w", err)
				}
			}
			rows[k] = append(rows[k], v)
		}
	}
	return rows, nil
}
