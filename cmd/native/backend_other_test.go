//go:build !darwin

package main

import (
	"strings"
	"testing"
)

// --backend metal off macOS is an error that says Metal is only there.
func TestBackendMetalElsewhere(t *testing.T) {
	be, err := newBackend("metal", 1, false, false)
	if err == nil {
		be.Close()
		t.Fatalf("--backend metal opened %s off macOS", be.Name())
	}
	if !strings.Contains(err.Error(), "Metal is only on macOS") {
		t.Errorf("--backend metal says %q, not that Metal is only on macOS", err)
	}
	_, errs, err := ember(t, "", "run", "--backend", "metal", "--model", tinyModelFile(t), "--prompt", "hi", "--count", "2")
	if err == nil || !strings.Contains(errs, "Metal is only on macOS") {
		t.Errorf("ember run --backend metal: %v, %q", err, errs)
	}
}
