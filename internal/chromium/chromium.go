// Package chromium finds the Chromium binary the browser tests drive
// (the chat page, the WebGPU backend compiled to wasm, the engine in a
// tab), with the flags they start it with, and writes the engine's static
// site for them. make deps installs Debian's chromium; EMBER_CHROMIUM
// names another browser binary.
package chromium

import (
	"errors"
	"os"
	"os/exec"
	"testing"
)

// Path returns the browser to run, or an error saying how to get one: the
// tests fail rather than skip without it, since CI always installs it.
func Path() (string, error) {
	for _, p := range []string{os.Getenv("EMBER_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if p == "" {
			continue
		}
		if path, err := exec.LookPath(p); err == nil {
			return path, nil
		}
	}
	return "", errors.New("no Chromium found (make deps installs Debian's chromium; EMBER_CHROMIUM names another binary)")
}

// Require is Path for a test: without a browser the test fails.
func Require(t testing.TB) string {
	t.Helper()
	path, err := Path()
	if err != nil {
		t.Fatal(err)
	}
	return path
}
