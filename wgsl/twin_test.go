package wgsl

import (
	"strings"
	"testing"
)

func TestTwin(t *testing.T) {
	const src = `@group(0) @binding(2) var<storage, read> W: array<u32>;
fn b(o: u32) -> u32 { return W[o]; }
fn d(o: u32) -> u32 {
    // {unbalanced in a comment
    return b(o) + 1u;
}
fn x(o: u32) -> u32 { return o; }
fn main() { let y = d(0u) + d_V(0u); }
`
	out, err := Twin(src, "W", "V")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fn b_V(o: u32) -> u32 { return V[o]; }", "return b_V(o) + 1u;", "fn d_V("} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	for _, not := range []string{"fn x_V", "fn main_V"} {
		if strings.Contains(out, not) {
			t.Errorf("%q: only functions reading W are twinned\n%s", not, out)
		}
	}
	if _, err := Twin(src, "Q", "V"); err == nil {
		t.Error("twinned a kernel no function of which reads Q")
	}
	// Every weight type's matvec helpers twin into a kernel that assembles.
	for _, dec := range []string{"f32", "f16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q4_k", "q5_k", "q6_k"} {
		s, err := Source("matmul_gate_up", dec, true, "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(s, "fn accumulate_V(") || !strings.Contains(s, "fn dot_part_V(") {
			t.Errorf("%s: no twins of accumulate and dot_part", dec)
		}
	}
}
