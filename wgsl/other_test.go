package wgsl

import (
	"strings"
	"testing"
)

func TestOther(t *testing.T) {
	const kernel = `const WG = 64u;
const PARTS = 8u;
const ROW_WORD_U = 26u;
var<private> acc: f32;
fn b(o: u32) -> u32 { return W[o]; }
fn d(o: u32) -> f32 { return f32(b(o) * PARTS); }
fn main() { acc += d(0u) + d_U(0u); }
`
	const chain = `const WG = 64u;
const PARTS = 16u;
const ROW_WORD = 4u;
var<private> acc: f32;
struct P { a: u32, PARTS: u32 }
fn b(o: u32) -> u32 { return W[o]; }
fn h(o: u32) -> u32 { return o + 1u; }
fn d(o: u32) -> f32 {
    let p = P(b(o), PARTS);
    return f32(h(p.a) * p.PARTS * pu(ROW_WORD));
}
`
	out, err := Other(kernel, chain, "W", "U")
	if err != nil {
		t.Fatal(err)
	}
	added := strings.TrimPrefix(out, kernel)
	for _, want := range []string{
		"fn b_U(o: u32) -> u32 { return U[o]; }", // reads the other array
		"const PARTS_U = 16u;",                   // differs from the kernel's
		"struct P_U { a: u32, PARTS: u32 }",      // uses PARTS_U: a field keeps its name
		"let p = P_U(b_U(o), PARTS_U);",
		"f32(h(p.a) * p.PARTS * pu(ROW_WORD_U))", // the kernel's own ROW_WORD_U
		"fn h(o: u32)",                           // new to the kernel, used as is
	} {
		if !strings.Contains(added, want) {
			t.Errorf("no %q in what Other added:\n%s", want, added)
		}
	}
	for _, not := range []string{"const WG", "var<private> acc", "ROW_WORD = 4u", "ROW_WORD_U = 4u", "fn h_U"} {
		if strings.Contains(added, not) {
			t.Errorf("%q: shared or overridden, not copied:\n%s", not, added)
		}
	}
	if _, err := Other(kernel, "fn x() {}\n", "W", "U"); err == nil {
		t.Error("no error for a chain no declaration of which reads W")
	}
	if _, err := Other(kernel, "fn x() {\n", "W", "U"); err == nil {
		t.Error("no error for a declaration without an end")
	}
	// Every pair of weight types assembles into matmul_qkv, the second's
	// helpers reading U, and a kernel of one type refuses two.
	types := []string{"f32", "f16", "q8_0", "q4_0", "q4_1", "q5_0", "q5_1", "q4_k", "q5_k", "q6_k"}
	for _, a := range types {
		for _, b := range types {
			s, err := Source("matmul_qkv", a+"+"+b, true, "")
			if err != nil {
				t.Fatalf("%s+%s: %v", a, b, err)
			}
			if !strings.Contains(s, "fn accumulate_U(") || !strings.Contains(s, "fn dot_part_U(") || !strings.Contains(s, "pu(ROW_BYTES_WORD_U)") {
				t.Errorf("%s+%s: no copies of accumulate and dot_part reading U", a, b)
			}
		}
	}
	if _, err := Source("matmul", "q4_k+q6_k", true, ""); err == nil {
		t.Error("matmul built for two weight types")
	}
}
