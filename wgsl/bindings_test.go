package wgsl

import (
	"strings"
	"testing"
)

func TestBindings(t *testing.T) {
	src, err := Source("matmul", "q8_0", false, "")
	if err != nil {
		t.Fatal(err)
	}
	got := Bindings(src)
	want := []Binding{
		{2, "W", false, "array<u32>"},
		{3, "X", false, "array<vec4<u32>>"},
		{4, "O", true, "array<f32>"},
		{5, "E", false, "array<f32>"},
		{6, "F", true, "array<f32>"},
		{7, "G", false, "array<f32>"},
	}
	if len(got) != len(want) {
		t.Fatalf("matmul declares %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("binding %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestMerge(t *testing.T) {
	const src = `@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read_write> B: array<f32>;
@group(0) @binding(4) var<storage, read_write> C: array<u32>;
// B[i] is A's neighbour.
fn f(i: u32) { B[i] = A[i] + B [i + 1u]; C[i] = 0u; }
`
	out, err := Merge(src, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	bs := Bindings(out)
	if len(bs) != 2 || bs[0] != (Binding{2, "A", true, "array<f32>"}) {
		t.Errorf("after merging B into A: %+v, want A writable and C", bs)
	}
	if !strings.Contains(out, "A[i] = A[i] + A [i + 1u]") {
		t.Errorf("B's indexings not read through A:\n%s", out)
	}
	if _, err := Merge(src, 4, 3); err == nil {
		t.Error("merged an array<u32> into an array<f32>")
	}
	if _, err := Merge(src, 5, 3); err == nil {
		t.Error("merged a binding the kernel does not declare")
	}
	if _, err := Merge(src+"fn g() -> u32 { return arrayLength(&B); }\n", 3, 2); err == nil {
		t.Error("merged a binding used other than by indexing")
	}
}
