package oracle

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestTool builds llama-perplexity (or finds it built) and runs it.
func TestTool(t *testing.T) {
	if _, err := Tool("llama-nonesuch"); err == nil || !strings.Contains(err.Error(), `"llama-nonesuch"`) {
		t.Fatalf("Tool of an unknown tool: %v, want an error naming it", err)
	}
	if err := Available(); err != nil {
		t.Skip(err)
	}
	if _, err := exec.LookPath("g++"); err != nil {
		t.Skip("no g++")
	}
	start := time.Now()
	bin, err := Tool("llama-perplexity")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("llama-perplexity at hand in %v", time.Since(start).Round(time.Millisecond))
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "version") {
		t.Fatalf("%s --version: %v\n%s", bin, err, out)
	}
}
