// Package wgsl holds the WGSL kernel sources of the WebGPU backend, one job
// per file, named like their Metal twins in msl/. The files at the top are
// the kernels, each named after the op (or the ops fused) it computes, as
// the backend dispatches them; parts/ holds the pieces they are assembled
// from. A file may start with lines `//!use NAME` naming
// pieces (without .wgsl) to prepend, such as the block decoders of
// the quantized weight types. Four lines name helpers that vary with the
// build of a kernel: `//!decode` (decode_TYPE, the element decoder of a
// weight type), `//!dot` (dot_TYPE, a weight type's part of a matvec),
// `//!tile` (tile_TYPE, a weight type's loads for the tiled product) and
// `//!reduce` (reduce_subgroup where the adapter has subgroup operations,
// else reduce_shared). A line `//!twin A B` gives the kernel copies of the
// functions reading array A that read array B instead (Twin). A line
// `//!other B HELPER...` does the same for the named helpers built for a
// second weight type ("dot": that type's dot_TYPE), so one kernel can read
// weights of two types (Other). A line
// `//!swap A B` makes the `//!use A` lines after it, in any file, take B
// instead: a kernel built again on a helper of the same functions that
// computes them differently (matmul_round's matvec_shape_round); the first
// swap of A holds, so a kernel file can swap what a file it uses swaps.
package wgsl

import (
	"embed"
	"fmt"
	"strconv"
	"strings"
)

//go:embed *.wgsl parts/*.wgsl
var files embed.FS

// Kernels lists the kernels: the files at the top, without .wgsl.
func Kernels() []string {
	ents, _ := files.ReadDir(".")
	var names []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".wgsl"); ok && !e.IsDir() {
			names = append(names, n)
		}
	}
	return names
}

// read returns the source file of a kernel or a piece: names are unique
// across the top and parts/.
func read(name string) ([]byte, error) {
	if src, err := files.ReadFile(name + ".wgsl"); err == nil {
		return src, nil
	}
	return files.ReadFile("parts/" + name + ".wgsl")
}

// Source returns the kernel file name (without .wgsl) with its helpers
// prepended: decode is the weight type the kernel is built for ("" for
// none), subgroups whether the device runs subgroup operations, and
// consts declarations that go first (the constants naming the words of
// the kernel's parameter block, which the backend makes). A kernel of two
// weight types takes decode "A+B": A for its own helpers, B for those its
// `//!other` lines name (Other). A kernel that sizes workgroup memory by
// its shapes takes decode "TYPE@N" and finds N declared as MAXD: the
// prefill attention's query heads are 10 KiB at the largest head size
// (640), and what a workgroup holds bounds how many of them an SM runs.
func Source(name, decode string, subgroups bool, consts string) (string, error) {
	decode, size, sized := strings.Cut(decode, "@")
	if sized {
		n, err := strconv.ParseUint(size, 10, 32)
		if err != nil || n == 0 {
			return "", fmt.Errorf("wgsl: %s.wgsl built for size %q: want a positive count", name, size)
		}
		consts += fmt.Sprintf("const MAXD = %du;\n", n)
	}
	decode, second, two := strings.Cut(decode, "+")
	if !two {
		second = decode
	}
	src, twins, others, err := assemble([]string{name}, decode, subgroups)
	if err != nil {
		return "", err
	}
	src = consts + src
	for _, t := range twins {
		if src, err = Twin(src, t[0], t[1]); err != nil {
			return "", fmt.Errorf("%s.wgsl: %w", name, err)
		}
	}
	if two && len(others) == 0 {
		return "", fmt.Errorf("wgsl: %s.wgsl takes one weight type, not %s+%s", name, decode, second)
	}
	for _, o := range others {
		// o: the array the copies read, then the helpers to copy ("dot":
		// the second type's dot_TYPE).
		roots := o[1:]
		for i, r := range roots {
			if r == "dot" {
				roots[i] = "dot_" + second
			}
		}
		chain, _, _, err := assemble(roots, second, subgroups)
		if err != nil {
			return "", err
		}
		if src, err = Other(src, chain, "W", o[0]); err != nil {
			return "", fmt.Errorf("%s.wgsl: %w", name, err)
		}
	}
	return src, nil
}

// assemble joins the files roots with the helpers they use, each once; it
// returns the `//!twin` and `//!other` lines' fields for Source to apply.
func assemble(roots []string, decode string, subgroups bool) (string, [][]string, [][]string, error) {
	src, twins, others, _, err := assembleFiles(roots, decode, subgroups)
	return src, twins, others, err
}

// assembleFiles is assemble, also returning the names of the files used.
func assembleFiles(roots []string, decode string, subgroups bool) (string, [][]string, [][]string, map[string]bool, error) {
	seen := map[string]bool{}
	var twins, others [][]string
	swaps := map[string]string{}
	var b strings.Builder
	var add func(n string) error
	add = func(n string) error {
		if s, ok := swaps[n]; ok {
			n = s
		}
		if seen[n] {
			return nil
		}
		seen[n] = true
		src, err := read(n)
		if err != nil {
			return fmt.Errorf("wgsl: no kernel source %s.wgsl", n)
		}
		for _, line := range strings.Split(string(src), "\n") {
			switch {
			case strings.HasPrefix(line, "//!use "):
				if err := add(strings.TrimSpace(strings.TrimPrefix(line, "//!use "))); err != nil {
					return err
				}
			case strings.HasPrefix(line, "//!decode"), strings.HasPrefix(line, "//!dot"), strings.HasPrefix(line, "//!tile"):
				if decode == "" {
					return fmt.Errorf("wgsl: %s.wgsl needs a weight type", n)
				}
				if err := add(strings.TrimSpace(strings.TrimPrefix(line, "//!")) + "_" + decode); err != nil {
					return err
				}
			case strings.HasPrefix(line, "//!twin "):
				f := strings.Fields(strings.TrimPrefix(line, "//!twin "))
				if len(f) != 2 {
					return fmt.Errorf("wgsl: %s.wgsl: %q names two arrays", n, line)
				}
				twins = append(twins, f)
			case strings.HasPrefix(line, "//!other "):
				f := strings.Fields(strings.TrimPrefix(line, "//!other "))
				if len(f) < 2 {
					return fmt.Errorf("wgsl: %s.wgsl: %q names an array and helpers", n, line)
				}
				others = append(others, f)
			case strings.HasPrefix(line, "//!swap "):
				f := strings.Fields(strings.TrimPrefix(line, "//!swap "))
				if len(f) != 2 {
					return fmt.Errorf("wgsl: %s.wgsl: %q names two helpers", n, line)
				}
				// The first swap of a helper wins: a kernel file's own
				// over those of the files it uses (moe_gate_up_round
				// builds moe_gate_up on another workgroup shape).
				if _, set := swaps[f[0]]; !set {
					swaps[f[0]] = f[1]
				}
			case strings.HasPrefix(line, "//!reduce"):
				r := "reduce_shared"
				if subgroups {
					r = "reduce_subgroup"
				}
				if err := add(r); err != nil {
					return err
				}
			}
		}
		b.Write(src)
		b.WriteByte('\n')
		return nil
	}
	for _, r := range roots {
		if err := add(r); err != nil {
			return "", nil, nil, nil, err
		}
	}
	return b.String(), twins, others, seen, nil
}
