package main

import (
	"bufio"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// served is a running `ember serve` on a loopback port the kernel picked.
type served struct {
	cmd    *exec.Cmd
	addr   string
	stderr *strings.Builder
	exited chan error
}

// startServe starts `ember serve` and reads the address it listens on; a
// server still running at cleanup is killed.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	cmd := exec.Command(emberBinary(t), append([]string{"serve", "--addr", "127.0.0.1:0", "--threads", "2"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	sv := &served{cmd: cmd, stderr: &strings.Builder{}, exited: make(chan error, 1)}
	cmd.Stderr = sv.stderr
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
		sv.exited <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	select {
	case line := <-lines:
		rest, ok := strings.CutPrefix(line, "listening on http://")
		if !ok {
			t.Fatalf("first line %q", line)
		}
		sv.addr, _, _ = strings.Cut(rest, " ")
	case <-time.After(15 * time.Second):
		t.Fatalf("serve did not start: %s", sv.stderr.String())
	}
	return sv
}

// stop sends sig and waits for the server to exit, returning its error.
func (sv *served) stop(t *testing.T, sig syscall.Signal) error {
	t.Helper()
	sv.cmd.Process.Signal(sig)
	select {
	case err := <-sv.exited:
		return err
	case <-time.After(10 * time.Second):
		sv.cmd.Process.Kill()
		t.Fatalf("serve did not stop on %v: %s", sig, sv.stderr.String())
		return nil
	}
}

// serveBinary starts `ember serve` and returns its address; the server is
// stopped with SIGINT at cleanup, which must end it cleanly.
func serveBinary(t *testing.T, args ...string) string {
	t.Helper()
	sv := startServe(t, args...)
	t.Cleanup(func() {
		if err := sv.stop(t, syscall.SIGINT); err != nil {
			t.Errorf("serve exited with %v: %s", err, sv.stderr.String())
		}
	})
	return sv.addr
}

// tinyModelFile is a tiny synthetic llama, written once per test binary
// beside it (tests only read it).
func tinyModelFile(t *testing.T) string {
	t.Helper()
	tinyOnce.Do(func() {
		emberBinary(t)
		tinyPath = filepath.Join(emberDir, "tiny.gguf")
		if _, errs, err := ember(t, "", "synth", "--arch", "llama", "--shape", "tiny", "--type", "Q8_0", "-o", tinyPath); err != nil {
			tinyErr = fmt.Errorf("synth: %v: %s", err, errs)
		}
	})
	if tinyErr != nil {
		t.Fatal(tinyErr)
	}
	return tinyPath
}

var (
	tinyOnce sync.Once
	tinyPath string
	tinyErr  error
)

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

// SIGTERM drains: the port stops accepting, a stream still running when
// --drain is over ends with a finish_reason and [DONE], and the command
// exits 0.
func TestServeDrainOnSIGTERM(t *testing.T) {
	sv := startServe(t, "--model", tinyModelFile(t), "--drain", "1ms")
	var resp *http.Response
	var err error
	for range 100 { // the model loads after the port is bound
		// Until the context (512) is full: over a second on this model.
		body := `{"prompt":"Once","ignore_eos":true,"stream":true}`
		resp, err = http.Post("http://"+sv.addr+"/v1/completions", "application/json", strings.NewReader(body))
		if err == nil && resp.StatusCode == 503 {
			if resp.Header.Get("Retry-After") == "" {
				t.Fatal("503 without Retry-After while loading")
			}
			resp.Body.Close()
			time.Sleep(50 * time.Millisecond)
			continue
		}
		break
	}
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	var events []string
	stopped := make(chan error, 1)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			events = append(events, data)
			if len(events) == 3 {
				go func() { stopped <- sv.stop(t, syscall.SIGTERM) }()
			}
		}
	}
	if err := <-stopped; err != nil {
		t.Fatalf("serve exited with %v: %s", err, sv.stderr.String())
	}
	n := len(events)
	if n < 5 || n > 400 || events[n-1] != "[DONE]" || !strings.Contains(events[n-2], `"finish_reason":"length"`) {
		t.Fatalf("the stream (%d events) ended with %q", n, events[max(0, n-3):])
	}
	if !strings.Contains(sv.stderr.String(), "draining") {
		t.Fatalf("stderr: %s", sv.stderr.String())
	}
}
