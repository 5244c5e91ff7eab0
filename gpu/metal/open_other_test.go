//go:build !darwin

package metal

import (
	"strings"
	"testing"
)

// Elsewhere than macOS, Open fails and says why; it does not panic or
// hand back a backend.
func TestOpenElsewhere(t *testing.T) {
	be, err := Open(Options{})
	if err == nil || be != nil {
		t.Fatalf("Open gave %v, %v; want no backend and an error", be, err)
	}
	if !strings.Contains(err.Error(), "Metal is only on macOS") {
		t.Errorf("Open's error %q does not say Metal is only on macOS", err)
	}
}
