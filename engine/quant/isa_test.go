package quant

import (
	"bytes"
	"strings"
	"testing"
)

// TestISAEnv: every level ISAEnv names is taken, and a value that names
// none (a typo, a level the package does not have) leaves the CPU's best
// with a warning naming the value, instead of stopping the program at
// init.
func TestISAEnv(t *testing.T) {
	defer func(e error) { ISAEnvErr = e }(ISAEnvErr)
	for v, want := range map[string]isaLevel{"": isaMax, "max": isaMax, "avx2": isaBase, "go": isaGo} {
		var w bytes.Buffer
		ISAEnvErr = nil
		if got := isaFromEnv(v, &w); got != want || w.Len() != 0 || ISAEnvErr != nil {
			t.Errorf("%s=%q: level %d, warning %q, error %v; want level %d, no warning", ISAEnv, v, got, w.String(), ISAEnvErr, want)
		}
	}
	for _, v := range []string{"avx512", "AVX2", "neon", " go", "1"} {
		var w bytes.Buffer
		ISAEnvErr = nil
		got := isaFromEnv(v, &w)
		if got != isaMax || ISAEnvErr == nil || !strings.Contains(w.String(), ISAEnv+`="`+v+`"`) {
			t.Errorf("%s=%q: level %d, warning %q, error %v; want the CPU's best and a warning naming the value", ISAEnv, v, got, w.String(), ISAEnvErr)
		}
	}
}
