package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/emberllm/ember/internal/oracle"
)

// ember perplexity writes a base file, reads it back (the KL divergence
// of a model from itself is the saved values' rounding), and refuses a
// base file made from another text.
func TestPerplexityCommand(t *testing.T) {
	shared := oracle.SharedDir()
	if shared == "" {
		t.Skip("../shared is absent: no stories260K model")
	}
	model := filepath.Join(shared, "models", "stories260K.gguf")
	text := filepath.Join("testdata", "perplexity.txt")
	base := filepath.Join(t.TempDir(), "base.logits")
	common := []string{"--model", model, "--ctx", "64", "--chunks", "4", "--backend", "cpu", "--threads", "2"}
	run := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := perplexityCmd(&out, &errb, append(append([]string{}, common...), args...))
		return out.String(), err
	}
	out, err := run("--file", text, "--kl-divergence-base", base)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\[1\][0-9.]+,\[2\][0-9.]+,\[3\][0-9.]+,\[4\][0-9.]+,\nFinal estimate: PPL = [0-9.]+ \+/- [0-9.]+\n$`).MatchString(out) {
		t.Errorf("perplexity printed:\n%s", out)
	}
	out, err = run("--kl-divergence-base", base, "--kl-divergence", "--file", text)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Mean PPL(Q)", "Mean    KLD:", "Same top p: 100.000"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the KL divergence report:\n%s", want, out)
		}
	}
	other := filepath.Join(t.TempDir(), "other.txt")
	if err := os.WriteFile(other, []byte(strings.Repeat("The cat sat on the mat. ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := run("--kl-divergence-base", base, "--kl-divergence", "--file", other); err == nil || !strings.Contains(err.Error(), "another text") {
		t.Errorf("a base file of another text: %v", err)
	}
	if _, err := run("--kl-divergence"); err == nil {
		t.Error("--kl-divergence without a base file ran")
	}
}
