package main

import (
	"bufio"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
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
