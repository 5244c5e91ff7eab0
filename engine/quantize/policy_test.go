package quantize

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/emberllm/ember/engine/gguf"
)

// llama.cpp's extra rules for 8-expert models (Mixtral's shape) under
// Q4_K_M: attn_v and attn_k in Q8_0, attn_output in Q5_K; the router and
// norms are never converted.
func TestPolicyEightExperts(t *testing.T) {
	s, _ := ParseScheme("Q4_K_M", false)
	names := []string{"blk.0.attn_v.weight", "blk.0.attn_k.weight", "blk.0.attn_output.weight", "blk.0.ffn_gate_inp.weight", "blk.0.attn_norm.weight", "blk.0.ffn_up_exps.weight"}
	p := NewPolicy(s, Model{Arch: "qwen3moe", Layers: 2, Experts: 8, Heads: 4, HeadsKV: 2}, names)
	want := []gguf.TensorType{gguf.Q8_0, gguf.Q8_0, gguf.Q5_K, gguf.F32, gguf.F32, gguf.Q4_K}
	dims := [][]uint64{{256, 128}, {256, 128}, {256, 256}, {256, 8}, {256}, {256, 256, 8}}
	for i, n := range names {
		if got := p.TypeFor(n, dims[i], gguf.F32); got != want[i] {
			t.Errorf("%s: %s, want %s", n, got, want[i])
		}
	}
}

func TestQuantizable(t *testing.T) {
	for name, c := range map[string]struct {
		dims []uint64
		want bool
	}{
		"blk.0.attn_q.weight":         {[]uint64{64, 64}, true},
		"blk.0.ffn_down_exps.weight":  {[]uint64{64, 64, 8}, true},
		"blk.0.attn_norm.weight":      {[]uint64{64}, false},
		"blk.0.attn_kv_a_norm.weight": {[]uint64{64, 1}, false},
		"blk.0.ffn_gate_inp.weight":   {[]uint64{64, 8}, false},
		"blk.0.exp_probs_b.bias":      {[]uint64{8, 8}, false},
		"rope_freqs.weight":           {[]uint64{32}, false},
	} {
		if got := Quantizable(name, c.dims); got != c.want {
			t.Errorf("%s %v: %v", name, c.dims, got)
		}
	}
}

// WriteOrdered keeps chunk order whatever finishes first, and stops at the
// first error.
func TestWriteOrdered(t *testing.T) {
	for _, workers := range []int{1, 2, 4} {
		var buf bytes.Buffer
		err := WriteOrdered(&buf, 50, workers, func(i int, b []byte) ([]byte, error) {
			return append(b[:0], fmt.Sprintf("%d,", i)...), nil
		}, nil)
		want := ""
		for i := 0; i < 50; i++ {
			want += fmt.Sprintf("%d,", i)
		}
		if err != nil || buf.String() != want {
			t.Fatalf("workers %d: %q %v", workers, buf.String(), err)
		}
		boom := errors.New("boom")
		buf.Reset()
		err = WriteOrdered(&buf, 50, workers, func(i int, b []byte) ([]byte, error) {
			if i == 7 {
				return nil, boom
			}
			return append(b[:0], 'x'), nil
		}, nil)
		if !errors.Is(err, boom) || buf.Len() != 7 {
			t.Fatalf("workers %d: error %v after %d chunks", workers, err, buf.Len())
		}
	}
}
