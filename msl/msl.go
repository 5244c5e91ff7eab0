// Package msl holds the Metal Shading Language kernels of the Metal backend
// (gpu/metal), one kernel per file at the top, each named as its WGSL twin
// in wgsl/ and computing what that twin computes; parts/ holds the pieces
// they are assembled from. The kernels keep to a subset of MSL that also
// compiles as C++17 against a shim of the Metal standard library
// (gpu/metal/testdata/shim), so that every kernel runs on the CPU in the
// tests of a machine without a Mac: plain scalar and vector arithmetic,
// device and constant pointers, threadgroup memory passed as kernel
// arguments (never declared in a body), threadgroup_barrier, the
// simd_sum/simd_max reductions and threadgroup atomics, and SIMD-group
// matrices (simdgroup_float8x8), which the shim emulates. No kernel needs
// more (one that did would say why in its header): gpu/metal's tests
// compile every build of every kernel through the shim and fail unless
// each has run against a CPU reference.
//
// A file may start with directive lines: `//!use NAME` prepends a piece
// (without .metal); `//!decode` and `//!dot` prepend the element decoder
// (decode_TYPE) and the matvec part (dot_TYPE) of the weight or cache
// type the kernel is built for; `//!reduce` prepends reduce_simd where the
// device has SIMD-group reductions, else reduce_shared; `//!tilemul`
// prepends tile_simdgroup where it has SIMD-group matrices, else
// tile_scalar. A kernel file
// also says how it is dispatched: `//!threads N`, the threads of a
// threadgroup, and `//!threadgroup I BYTES`, the threadgroup memory its
// argument [[threadgroup(I)]] takes. Each kernel reads its parameters
// from a struct Params at [[buffer(0)]], which the backend declares from
// its Go twin, and the step's position from [[buffer(1)]] where it needs
// it.
package msl

import (
	"embed"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

//go:embed *.metal parts/*.metal
var files embed.FS

// Kernels lists the kernels: the files at the top, without .metal, in
// order.
func Kernels() []string {
	paths, _ := fs.Glob(files, "*.metal")
	for i, p := range paths {
		paths[i] = strings.TrimSuffix(p, ".metal")
	}
	return paths
}

// Kernel is an assembled kernel and how to dispatch it.
type Kernel struct {
	Name string
	// Source is the kernel with its pieces, in the order they were used.
	Source string
	// Threads is the size of a threadgroup (`//!threads`).
	Threads int
	// Threadgroup is the bytes of each [[threadgroup(I)]] argument.
	Threadgroup []int
	// Params are the entry point's parameters, in order.
	Params []Param
	// Files are the files assembled, the kernel's own last.
	Files []string
}

// Features are the optional features of a device the kernels use.
type Features struct {
	// SIMD: SIMD-group reductions (simd_sum and kin, SIMD-groups of 32).
	SIMD bool
	// Matrix: SIMD-group matrices (simdgroup_float8x8, Apple7 on).
	Matrix bool
}

// Load assembles kernel name for the weight or cache type decode ("" for
// a kernel of none), using the device features f.
func Load(name, decode string, feat Features) (*Kernel, error) {
	k := &Kernel{Name: name}
	seen := map[string]bool{}
	var b strings.Builder
	var add func(n string, top bool) error
	add = func(n string, top bool) error {
		if seen[n] {
			return nil
		}
		seen[n] = true
		path := "parts/" + n + ".metal"
		if top {
			path = n + ".metal"
		}
		src, err := files.ReadFile(path)
		if err != nil {
			return fmt.Errorf("msl: no kernel source %s", path)
		}
		for _, line := range strings.Split(string(src), "\n") {
			d, ok := strings.CutPrefix(line, "//!")
			if !ok {
				continue
			}
			fields := strings.Fields(d)
			if len(fields) == 0 {
				continue
			}
			if err := k.directive(n, fields, decode, feat, top, func(part string) error { return add(part, false) }); err != nil {
				return err
			}
		}
		b.Write(src)
		b.WriteByte('\n')
		k.Files = append(k.Files, path)
		return nil
	}
	if err := add(name, true); err != nil {
		return nil, err
	}
	k.Source = b.String()
	if k.Threads <= 0 {
		return nil, fmt.Errorf("msl: %s.metal has no //!threads line", name)
	}
	ps, err := Signature(k.Source, name)
	if err != nil {
		return nil, err
	}
	k.Params = ps
	for _, p := range ps {
		if i, ok := p.Index("threadgroup"); ok && (i >= len(k.Threadgroup) || k.Threadgroup[i] == 0) {
			return nil, fmt.Errorf("msl: %s takes threadgroup(%d) but no //!threadgroup %d line sizes it", name, i, i)
		}
	}
	return k, nil
}

// directive applies one directive line (its fields f) of file n.
func (k *Kernel) directive(n string, f []string, decode string, feat Features, top bool, use func(string) error) error {
	switch f[0] {
	case "use":
		if len(f) != 2 {
			return fmt.Errorf("msl: %s: //!use names one piece", n)
		}
		return use(f[1])
	case "decode", "dot":
		if decode == "" {
			return fmt.Errorf("msl: %s needs a weight type", n)
		}
		return use(f[0] + "_" + decode)
	case "reduce":
		if feat.SIMD {
			return use("reduce_simd")
		}
		return use("reduce_shared")
	case "tilemul":
		if feat.Matrix {
			return use("tile_simdgroup")
		}
		return use("tile_scalar")
	case "threads", "threadgroup":
		if !top {
			return fmt.Errorf("msl: %s: only a kernel file says how it is dispatched", n)
		}
		var v []int
		for _, s := range f[1:] {
			x, err := strconv.Atoi(s)
			if err != nil || x < 0 {
				return fmt.Errorf("msl: %s: //!%s takes whole numbers, not %q", n, f[0], s)
			}
			v = append(v, x)
		}
		if f[0] == "threads" {
			if len(v) != 1 || v[0] == 0 {
				return fmt.Errorf("msl: %s: //!threads takes one count", n)
			}
			k.Threads = v[0]
			return nil
		}
		if len(v) != 2 || v[1] == 0 || v[1]%16 != 0 {
			return fmt.Errorf("msl: %s: //!threadgroup takes an index and a size in bytes, a multiple of 16", n)
		}
		for len(k.Threadgroup) <= v[0] {
			k.Threadgroup = append(k.Threadgroup, 0)
		}
		k.Threadgroup[v[0]] = v[1]
		return nil
	}
	return fmt.Errorf("msl: %s: unknown directive //!%s", n, f[0])
}
