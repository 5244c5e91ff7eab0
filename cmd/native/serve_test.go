package main

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serveBinary starts `ember serve` on a loopback port the kernel picks
// and returns its address; the server is stopped with SIGINT at cleanup,
// which must end it cleanly.
func serveBinary(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(emberBinary(t), append([]string{"serve", "--addr", "127.0.0.1:0", "--threads", "2"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	var addr string
	select {
	case line := <-lines:
		rest, ok := strings.CutPrefix(line, "listening on http://")
		if !ok {
			t.Fatalf("first line %q", line)
		}
		addr, _, _ = strings.Cut(rest, " ")
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("serve did not start: %s", errb.String())
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve exited with %v: %s", err, errb.String())
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("serve did not stop on SIGINT: %s", errb.String())
		}
	})
	return addr
}

func tinyModelFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	if _, errs, err := ember(t, "", "synth", "--arch", "llama", "--shape", "tiny", "--type", "Q8_0", "-o", path); err != nil {
		t.Fatalf("synth: %v: %s", err, errs)
	}
	return path
}

// ember serve and ember remote together, through the binary: the remote
// driver streams the same answer `ember run` gives, prints the server's
// stats, benchmarks with requests in flight at once, and needs the key.
func TestServeRemoteBinary(t *testing.T) {
	model := tinyModelFile(t)
	addr := serveBinary(t, "--model", model, "--parallel", "2", "--api-key", "k3y")
	url := "ws://" + addr + "/ws"
	want, errs, err := ember(t, "", "run", "--model", model, "--prompt", "Tell me a story", "--temperature", "0", "--count", "8", "--threads", "2")
	if err != nil {
		t.Fatalf("run: %v: %s", err, errs)
	}
	out, errs, err := ember(t, "", "remote", url, "--prompt", "Tell me a story", "--temperature", "0", "--count", "8", "--api-key", "k3y", "-v")
	if err != nil {
		t.Fatalf("remote: %v: %s", err, errs)
	}
	if out != want || !strings.Contains(errs, "tok/s") || !strings.Contains(errs, "[server: model tiny") {
		t.Fatalf("remote printed %q (stderr %q); run printed %q", out, errs, want)
	}
	out, errs, err = ember(t, "", "remote", url, "--prompt", "Once", "--raw-prompt", "--count", "6", "--ignore-eos",
		"--bench", "--runs", "4", "--concurrency", "2", "--api-key", "k3y")
	if err != nil {
		t.Fatalf("remote --bench: %v: %s", err, errs)
	}
	if strings.Count(out, "generated 6 tokens") != 4 || !strings.Contains(out, "decode: ") || !strings.Contains(out, "concurrency 2") {
		t.Fatalf("bench output:\n%s", out)
	}
	_, errs, err = ember(t, "", "remote", url, "--prompt", "hi")
	if err == nil || !strings.Contains(errs, "401") {
		t.Fatalf("no key: %v %q", err, errs)
	}
	_, errs, err = ember(t, "", "remote", url, "--prompt", "hi", "--api-key", "k3y", "--top-p", "7")
	if err == nil || !strings.Contains(errs, "top_p") {
		t.Fatalf("bad option: %v %q", err, errs)
	}
}

func TestServeFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"serve", "--parallel", "0"}, "parallel"},
		{[]string{"serve", "--addr", "256.0.0.1:1"}, "256.0.0.1"},
		{[]string{"remote", "--prompt", "hi"}, "usage"},
		{[]string{"remote", "http://127.0.0.1:1/ws", "--prompt", "hi"}, "usage"},
		{[]string{"remote", "ws://127.0.0.1:1/ws"}, "prompt"},
		{[]string{"remote", "ws://127.0.0.1:1/ws", "--prompt", "hi"}, "refused"},
	} {
		_, errs, err := ember(t, "", c.args...)
		if err == nil || !strings.Contains(errs, c.says) {
			t.Errorf("%q: %v %q, want an error mentioning %q", c.args, err, errs, c.says)
		}
	}
}

func TestServeBadModelExits(t *testing.T) {
	_, errs, err := ember(t, "", "serve", "--addr", "127.0.0.1:0", "--model", filepath.Join(t.TempDir(), "missing.gguf"))
	if err == nil || !strings.Contains(errs, "missing.gguf") {
		t.Fatalf("%v %q", err, errs)
	}
}
