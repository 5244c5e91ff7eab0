package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emberllm/ember/engine/gguf"
)

// Help is asked for, not a mistake: `ember help run` prints run's usage
// and -h exits 0; defaults print as they are typed.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help", "run"}, {"run", "-h"}, {"run", "--help"}, {"help"}, {"-h"}, {"ls", "-h"}, {"serve", "-h"}} {
		out, errs, err := ember(t, "", args...)
		if err != nil {
			t.Errorf("ember %q: %v", args, err)
		}
		if args[0] == "help" && len(args) == 2 || args[0] == "run" {
			all := out + errs
			for _, want := range []string{"-temperature", "(default 0.8)", "(default 0.05)", "(default 0.95)", "-threads N"} {
				if !strings.Contains(all, want) {
					t.Errorf("ember %q lacks %q:\n%s", args, want, all)
				}
			}
			if strings.Contains(all, "0.800000") || strings.Contains(all, "0.0500000") {
				t.Errorf("ember %q prints float32 noise:\n%s", args, all)
			}
		}
	}
	if _, _, err := ember(t, ""); err == nil {
		t.Error("ember without a command exits 0")
	}
}

// Values the server refuses are refused by the CLI too, before anything
// loads; a failing command names itself once.
func TestFlagRanges(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"run", "--model", "x.gguf", "--prompt", "hi", "--temperature", "-1"}, "--temperature -1 is below 0"},
		{[]string{"run", "--model", "x.gguf", "--prompt", "hi", "--temperature", "NaN"}, "--temperature NaN"},
		{[]string{"run", "--model", "x.gguf", "--prompt", "hi", "--threads", "0"}, `invalid value "0" for flag -threads: must be at least 1`},
		{[]string{"chat", "--model", "x.gguf", "--threads", "-2"}, "must be at least 1"},
		{[]string{"bench", "--model", "x.gguf", "--ctx", "0"}, "must be at least 1"},
		{[]string{"serve", "--model", "x.gguf", "--threads", "0"}, "must be at least 1"},
		{[]string{"run", "--model", "x.gguf", "--prompt", "hi", "--top-p", "0"}, "--top-p 0 is outside"},
		{[]string{"run", "--model", "x.gguf", "--prompt", "hi", "--count", "-5"}, "--count -5 is negative"},
		{[]string{"chat", "--model", "x.gguf", "--count", "-1"}, "--count -1 is negative"},
		{[]string{"remote", "ws://127.0.0.1:1/ws", "--prompt", "hi", "--count", "-3"}, "--count -3 is negative (0: the server's limit)"},
		{[]string{"synth", "--arch", "nope", "--shape", "tiny", "-o", "/dev/null"}, "ember synth: unknown architecture"},
	} {
		_, errs, err := ember(t, "", c.args...)
		if err == nil || !strings.Contains(errs, c.says) {
			t.Errorf("ember %q: %v %q, want it to say %q", c.args, err, errs, c.says)
		}
		if strings.Contains(errs, "synth: synth:") {
			t.Errorf("a doubled prefix: %q", errs)
		}
	}
}

// --think asks a model without a reasoning mode in vain: the CLI says so.
func TestThinkOnPlainModel(t *testing.T) {
	model := tinyModelFile(t)
	_, errs, err := ember(t, "", "run", "--model", model, "--prompt", "hi", "--think", "--count", "2", "--threads", "2")
	if err != nil || !strings.Contains(errs, "no thinking mode") {
		t.Fatalf("%v %q", err, errs)
	}
}

// Ctrl-C at chat's prompt leaves (it stops an answer while one is written).
func TestChatInterruptAtPrompt(t *testing.T) {
	model := tinyModelFile(t)
	cmd := exec.Command(emberBinary(t), "chat", "--model", model, "--threads", "2")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	r := bufio.NewReader(stdout)
	if _, err := r.ReadString('\n'); err != nil { // the banner: the model is loaded
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("chat exited with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Ctrl-C at the prompt did not leave")
	}
}

// editedModel writes a copy of the tiny model with one metadata value
// changed.
func editedModel(t *testing.T, key string, v gguf.Value) string {
	t.Helper()
	r, err := gguf.Open(tinyModelFile(t))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w := gguf.NewWriter()
	w.Metadata.KVs = append(w.Metadata.KVs, r.Metadata.KVs...)
	for i := range w.Metadata.KVs {
		if w.Metadata.KVs[i].Key == key {
			w.Metadata.KVs[i].Value = v
		}
	}
	for _, ti := range r.Tensors {
		data, err := r.TensorData(ti)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.AddTensorBytes(ti.Name, ti.Type, ti.Dims, data); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "edited.gguf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := w.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	return path
}

// Messages say what is wrong with what: a device is not a short file, a
// file's own bad values are named as the file's.
func TestModelFileMessages(t *testing.T) {
	for _, c := range []struct {
		model string
		says  string
	}{
		{"/dev/zero", "/dev/zero is not a regular file (a character device), so not a GGUF file"},
		{editedModel(t, "llama.context_length", gguf.ValU32(0)), "the file's llama.context_length is 0"},
		{editedModel(t, "llama.attention.layer_norm_rms_epsilon", gguf.ValF32(float32(math.NaN()))), "the file's llama.attention.layer_norm_rms_epsilon is not a number (NaN)"},
		{editedModel(t, "llama.attention.layer_norm_rms_epsilon", gguf.ValF32(-1)), "layer_norm_rms_epsilon is -1"},
	} {
		for _, cmd := range []string{"run", "inspect"} {
			args := []string{"run", "--model", c.model, "--prompt", "hi", "--threads", "2"}
			if cmd == "inspect" {
				if !strings.HasPrefix(c.model, "/dev/") {
					continue // inspect shows any file's values
				}
				args = []string{"inspect", c.model}
			}
			_, errs, err := ember(t, "", args...)
			if err == nil || !strings.Contains(errs, c.says) || strings.Contains(errs, "shorter than") {
				t.Errorf("%s %s: %v %q, want it to say %q", cmd, c.model, err, errs, c.says)
			}
		}
	}
}

// --backend auto does not start Vulkan where no GPU can be reached (no
// device node: this machine), and caches a probe's verdict under a key
// that changes with the drivers.
func TestBackendAutoWithoutProbe(t *testing.T) {
	if nodes, linux := gpuNodes(); !linux || len(nodes) > 0 {
		t.Skip("this machine has GPU device nodes")
	}
	model := tinyModelFile(t)
	t0 := time.Now()
	_, errs, err := ember(t, "", "run", "--model", model, "--prompt", "hi", "--count", "1", "--threads", "2", "-v")
	if err != nil || !strings.Contains(errs, "without probing Vulkan") || strings.Contains(errs, "webgpu adapter") {
		t.Fatalf("%v %s", err, errs)
	}
	t.Logf("run took %v", time.Since(t0))

	dir := t.TempDir()
	manifest := filepath.Join(dir, "icd.json")
	os.WriteFile(manifest, []byte(`{"ICD":{"library_path":"x.so"}}`), 0o644)
	key := probeKey([]string{"/dev/dri/renderD128"}, []string{manifest})
	file := filepath.Join(dir, "backend-auto")
	saveVerdict(file, key, "software")
	if v := cachedVerdict(file, key); v != "software" {
		t.Fatalf("cached verdict %q", v)
	}
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(manifest, []byte(`{"ICD":{"library_path":"y.so"}}`), 0o644)
	if k2 := probeKey([]string{"/dev/dri/renderD128"}, []string{manifest}); k2 == key || cachedVerdict(file, k2) != "" {
		t.Fatal("a changed driver manifest keeps the old verdict")
	}
	if probeKey(nil, []string{manifest}) == probeKey([]string{"/dev/nvidia0"}, []string{manifest}) {
		t.Fatal("a new device node keeps the old verdict")
	}
}

// TestMain removes the test binary's folder (the ember build and the tiny
// model) afterwards.
func TestMain(m *testing.M) {
	code := m.Run()
	if emberDir != "" {
		os.RemoveAll(emberDir)
	}
	os.Exit(code)
}

// run --json-schema and --grammar constrain the output as the server's
// response_format and grammar do.
func TestRunConstrained(t *testing.T) {
	model := tinyModelFile(t)
	schema := `{"type":"object","properties":{"ok":{"type":"boolean"},"n":{"type":"integer","minimum":1,"maximum":5}},"required":["ok","n"],"additionalProperties":false}`
	for seed := range 3 {
		out, errs, err := ember(t, "", "run", "--model", model, "--prompt", "Answer", "--threads", "2", "--temperature", "1",
			"--seed", fmt.Sprint(seed), "--json-schema", schema)
		if err != nil {
			t.Fatalf("%v %s", err, errs)
		}
		var v struct {
			OK *bool `json:"ok"`
			N  int   `json:"n"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil || v.OK == nil || v.N < 1 || v.N > 5 {
			t.Fatalf("seed %d: %q (%v)", seed, out, err)
		}
	}
	path := filepath.Join(t.TempDir(), "yn.gbnf")
	os.WriteFile(path, []byte(`root ::= "yes" | "no"`), 0o644)
	out, errs, err := ember(t, "", "run", "--model", model, "--prompt", "Answer", "--threads", "2", "--grammar", "@"+path)
	if got := strings.TrimSpace(out); err != nil || (got != "yes" && got != "no") {
		t.Fatalf("%q %v %s", out, err, errs)
	}
	for _, c := range [][]string{{"--grammar", "root ::= root"}, {"--json-schema", `{"type":"string","pattern":"x"}`}, {"--grammar", "@/nonexistent"}} {
		_, errs, err := ember(t, "", append([]string{"run", "--model", model, "--prompt", "x"}, c...)...)
		if err == nil || !strings.Contains(errs, c[0]+": ") || strings.Contains(errs, "grammar: grammar") {
			t.Errorf("%q: %v %s", c, err, errs)
		}
	}
}
