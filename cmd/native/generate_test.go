package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The generating commands are tested through the real binary: flags,
// standard streams, exit codes and signals are part of what they promise.

var (
	emberOnce sync.Once
	emberBin  string
	emberErr  error
	emberDir  string
)

func emberBinary(t *testing.T) string {
	t.Helper()
	emberOnce.Do(func() {
		emberDir, emberErr = os.MkdirTemp("", "ember-cli-test")
		if emberErr != nil {
			return
		}
		emberBin = filepath.Join(emberDir, "ember")
		out, err := exec.Command("go", "build", "-o", emberBin, ".").CombinedOutput()
		if err != nil {
			emberErr = err
			emberBin = string(out)
		}
	})
	if emberErr != nil {
		t.Fatalf("building ember: %v\n%s", emberErr, emberBin)
	}
	return emberBin
}

// ember runs the binary and returns stdout, stderr and the exit error.
func ember(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(emberBinary(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

const storiesContinuation = ", there was a little girl named Lily. She loved to play outside in the park. One day, she saw a big, red ball"

func TestRunStoriesGreedy(t *testing.T) {
	inspectNeedStories(t)
	out, errs, err := ember(t, "", "run", "--model", inspectStories, "--prompt", "Once upon a time",
		"--temperature", "0", "--count", "40", "--threads", "2")
	if err != nil {
		t.Fatalf("ember run: %v\n%s", err, errs)
	}
	if !strings.HasPrefix(out, storiesContinuation) {
		t.Fatalf("stdout:\n got %q\nwant %q...", out, storiesContinuation)
	}
	for _, want := range []string{"prompt 5 tokens", "generated 40 tokens", "tok/s", "first token"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stats on stderr lack %q:\n%s", want, errs)
		}
	}
}

// On WebGPU (lavapipe here) the greedy text of stories260K, an F32 model
// whose logits WebGPU gives to float32 rounding, is the CPU backend's.
func TestRunWebGPU(t *testing.T) {
	inspectNeedStories(t)
	out, errs, err := ember(t, "", "run", "--model", inspectStories, "--prompt", "Once upon a time",
		"--temperature", "0", "--count", "40", "--backend", "webgpu")
	if err != nil {
		t.Fatalf("ember run --backend webgpu: %v\n%s", err, errs)
	}
	if !strings.HasPrefix(out, storiesContinuation) {
		t.Fatalf("stdout:\n got %q\nwant %q...", out, storiesContinuation)
	}
}

// Where no session set XDG_RUNTIME_DIR (servers, containers, CI), opening
// WebGPU prints no libwayland complaint about it: stderr is the stats.
func TestRunWebGPUQuietWithoutSession(t *testing.T) {
	inspectNeedStories(t)
	cmd := exec.Command(emberBinary(t), "run", "--model", inspectStories, "--prompt", "Once",
		"--temperature", "0", "--count", "4", "--backend", "webgpu")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("ember run --backend webgpu: %v\n%s", err, errb.String())
	}
	if strings.Contains(errb.String(), "XDG_RUNTIME_DIR") || strings.Contains(errb.String(), "error") {
		t.Errorf("stderr has more than the stats:\n%s", errb.String())
	}
}

// A fixed seed gives the same sampled text twice; another seed differs.
func TestRunSeedReproducible(t *testing.T) {
	inspectNeedStories(t)
	gen := func(seed string) string {
		out, errs, err := ember(t, "", "run", "--model", inspectStories, "--prompt", "Once upon a time",
			"--temperature", "1.0", "--seed", seed, "--count", "48", "--threads", "2")
		if err != nil {
			t.Fatalf("ember run: %v\n%s", err, errs)
		}
		return out
	}
	a, b, c := gen("42"), gen("42"), gen("7")
	if a != b {
		t.Fatalf("seed 42 gave two texts:\n%q\n%q", a, b)
	}
	if a == c {
		t.Fatalf("seeds 42 and 7 gave the same 48 sampled tokens: %q", a)
	}
}

func TestRunErrors(t *testing.T) {
	inspectNeedStories(t)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no model", []string{"run", "--prompt", "hi"}, "no model"},
		{"missing file", []string{"run", "--model", "/nonexistent/x.gguf", "--prompt", "hi"}, "no such file"},
		{"not a gguf", []string{"run", "--model", "generate_test.go", "--prompt", "hi"}, "magic"},
		{"prompt too long", []string{"run", "--model", inspectStories, "--ctx", "8", "--raw-prompt",
			"--prompt", strings.Repeat("Once upon a time ", 10)}, "context"},
		{"bad option", []string{"run", "--model", inspectStories, "--prompt", "hi", "--top-p", "3"}, "top"},
		{"bad backend", []string{"run", "--model", inspectStories, "--prompt", "hi", "--backend", "tpu"}, "backend"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errs, err := ember(t, "", c.args...)
			if err == nil {
				t.Fatalf("ember %v succeeded", c.args)
			}
			if !strings.Contains(strings.ToLower(errs), c.want) {
				t.Fatalf("stderr does not mention %q:\n%s", c.want, errs)
			}
			if strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine") {
				t.Fatalf("ember crashed:\n%s", errs)
			}
		})
	}
}

// A chat: two turns, a reset, the first turn again (the same answer after
// the reset), and /exit.
func TestChatTurnsAndReset(t *testing.T) {
	inspectNeedStories(t)
	in := "Once upon a time\nThe dog\n/reset\nOnce upon a time\n/exit\nnever read\n"
	out, errs, err := ember(t, in, "chat", "--model", inspectStories, "--temperature", "0", "--count", "16", "--threads", "2")
	if err != nil {
		t.Fatalf("ember chat: %v\n%s", err, errs)
	}
	if !strings.Contains(out, "(conversation reset)") {
		t.Fatalf("no reset acknowledgement:\n%s", out)
	}
	turns := strings.Split(out, ">>> ")
	// banner, 3 answers, reset line inside the third part, the /exit prompt
	if len(turns) != 6 {
		t.Fatalf("want 5 prompts, got %d parts:\n%s", len(turns), out)
	}
	first, again := strings.TrimSpace(turns[1]), strings.TrimSpace(turns[4])
	if first == "" || first != again {
		t.Fatalf("the same first turn after /reset answered differently:\n%q\n%q", first, again)
	}
	if strings.Count(errs, "generated") != 3 {
		t.Fatalf("want stats for 3 answers on stderr:\n%s", errs)
	}
	// the second turn reused the first turn's cache
	var lines []string
	for _, l := range strings.Split(errs, "\n") {
		if strings.HasPrefix(l, "[prompt") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 3 || strings.Contains(lines[1], "(0 reused)") {
		t.Fatalf("the second turn reused no cache: %s", lines[1])
	}
}

func TestBenchJSON(t *testing.T) {
	inspectNeedStories(t)
	out, errs, err := ember(t, "", "bench", "--model", inspectStories, "-p", "32", "-n", "16", "-r", "2", "--threads", "2", "--json")
	if err != nil {
		t.Fatalf("ember bench: %v\n%s", err, errs)
	}
	var r struct {
		PrefillMean     float64   `json:"prefill_mean"`
		DecodeMean      float64   `json:"decode_mean"`
		Kernels         int       `json:"kernels_per_token"`
		WeightBytes     int64     `json:"weight_bytes_per_token"`
		Prefill, Decode []float64 `json:"-"`
		Reps            int       `json:"reps"`
		LoadS           float64   `json:"load_s"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bench --json printed %q: %v", out, err)
	}
	if r.PrefillMean <= 0 || r.DecodeMean <= 0 || r.Kernels < 10 || r.WeightBytes < 100_000 || r.Reps != 2 || r.LoadS <= 0 || r.LoadS > 60 {
		t.Fatalf("implausible bench result: %+v", r)
	}
	table, errs, err := ember(t, "", "bench", "--model", inspectStories, "-p", "16", "-n", "8", "-r", "1", "--threads", "2")
	if err != nil {
		t.Fatalf("ember bench: %v\n%s", err, errs)
	}
	for _, want := range []string{"pp16", "tg8", "tok/s", "kernels/token", "GB/s"} {
		if !strings.Contains(table, want) {
			t.Errorf("bench table lacks %q:\n%s", want, table)
		}
	}
}
