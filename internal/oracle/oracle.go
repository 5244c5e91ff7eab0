// Package oracle runs llama.cpp (through the npm package node-llama-cpp,
// which ships its prebuilt CPU libraries) and Hugging Face's own Jinja
// renderer as independent references for ember's parity tests and
// benchmarks, and the official OpenAI client, which the server's tests
// drive unmodified. It lives outside engine/ because nothing in the engine
// may depend on it: it is test and benchmark tooling only. `make test`
// installs its npm packages (package.json beside this file).
package oracle

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Dir is the folder of this package: the npm project with the scripts.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// Available returns nil when node and the npm packages are installed, or an
// error saying what is missing and how to get it.
func Available() error {
	if _, err := exec.LookPath("node"); err != nil {
		return errors.New("node is not installed (make test installs what the oracle needs)")
	}
	if _, err := os.Stat(filepath.Join(Dir(), "node_modules", "node-llama-cpp")); err != nil {
		return fmt.Errorf("node-llama-cpp is not installed in %s (run: make oracle)", Dir())
	}
	return nil
}

// Node runs one of the scripts in this folder with args and returns its
// standard output; standard error is folded into the error on failure.
// With EMBER_ORACLE_BUILD set (BuildEnv), it runs them in a copy of the
// folder where llama.cpp finds only that CPU build.
func Node(script string, args ...string) ([]byte, error) {
	dir, err := activeDir()
	if err != nil {
		return nil, err
	}
	return NodeIn(dir, script, args...)
}

// SharedDir is ../shared beside the repository root (the test data every
// developer and CI has), or "" when it is absent.
func SharedDir() string {
	root := filepath.Join(Dir(), "..", "..")
	d := filepath.Join(root, "..", "shared")
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		abs, _ := filepath.Abs(d)
		return abs
	}
	return ""
}
