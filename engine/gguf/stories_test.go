package gguf

import (
	"errors"
	"io"
	"os"
	"runtime"
	"testing"
)

const storiesPath = "../../../shared/models/stories260K.gguf"

// mmapExpected is whether Open should map files on this platform.
var mmapExpected = runtime.GOOS != "windows" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" && runtime.GOOS != "plan9"

func needStories(t testing.TB) {
	t.Helper()
	if _, err := os.Stat(storiesPath); errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s is absent (it comes with ../shared)", storiesPath)
	}
}

func TestStories260K(t *testing.T) {
	needStories(t)
	r, err := Open(storiesPath)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := len(r.Tensors); n != 48 {
		t.Errorf("%d tensors, want 48", n)
	}
	if a := r.Architecture(); a != "llama" {
		t.Errorf("architecture %q, want llama", a)
	}
	if toks, ok := r.Metadata.Strings("tokenizer.ggml.tokens"); !ok || len(toks) != 512 {
		t.Errorf("vocabulary of %d tokens, want 512", len(toks))
	}
	tok, ok := r.Tensor("token_embd.weight")
	if !ok || tok.Type != F32 || len(tok.Dims) != 2 || tok.Dims[1] != 512 {
		t.Errorf("token_embd.weight: %+v", tok)
	}
	if r.DataOffset+r.DataSize() > uint64(r.Size()) {
		t.Errorf("data section ends at %d, past the file's %d bytes", r.DataOffset+r.DataSize(), r.Size())
	}

	all := readEveryWay(t, storiesPath)
	ref := all["open"]
	if len(ref) != 48 {
		t.Fatalf("Open path gave %d tensors", len(ref))
	}
	var total uint64
	for how, got := range all {
		if len(got) != len(ref) {
			t.Errorf("%s: %d tensors, want %d", how, len(got), len(ref))
			continue
		}
		for i := range got {
			if got[i].name != ref[i].name || string(got[i].data) != string(ref[i].data) {
				t.Errorf("%s: tensor %d (%s) differs from Open's", how, i, got[i].name)
			}
		}
	}
	for _, nd := range ref {
		total += uint64(len(nd.data))
	}
	if total == 0 || total > r.DataSize() {
		t.Errorf("tensor bytes %d against a data section of %d", total, r.DataSize())
	}

	// A stream whose tensors are read only in part (or not at all) must
	// still hand out the right bytes for the next ones.
	fh, _ := os.Open(storiesPath)
	defer fh.Close()
	s, err := NewStream(fh, -1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		ti, rd, err := s.Next()
		if err == io.EOF {
			if i != 48 {
				t.Errorf("stream ended after %d tensors", i)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		want, _ := r.TensorData(ti)
		switch i % 3 {
		case 0: // skip entirely
		case 1:
			b := make([]byte, len(want)/2)
			if _, err := io.ReadFull(rd, b); err != nil || string(b) != string(want[:len(b)]) {
				t.Errorf("partial read of %q differs (%v)", ti.Name, err)
			}
		case 2:
			b, err := io.ReadAll(rd)
			if err != nil || string(b) != string(want) {
				t.Errorf("full read of %q differs (%v)", ti.Name, err)
			}
		}
	}
}
