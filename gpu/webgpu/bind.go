//go:build cgo || js

package webgpu

import (
	"fmt"
	"strings"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/wgsl"
)

// WebGPU forbids a dispatch to bind one buffer twice when either binding is
// writable (browsers reject it; wgpu-native lets it through). Ops bind a
// buffer twice often: in place (Out is In), an absent optional input filled
// by another operand, a product with no fused epilogue (E and F are Out),
// MLA's values read from the key cache, views of one activation (q, k, v
// of a fused projection). Rather than a kernel for each such case, a
// dispatch binds the buffer once and the kernel is rebuilt reading the
// second binding through the first (wgsl.Merge).

// pipeline is a compiled kernel and the storage bindings it declares.
type pipeline struct {
	pipe     *wgpu.ComputePipeline
	bindings []wgsl.Binding
}

// kernelSource is a kernel's assembled source and its storage bindings,
// assembled once per backend.
type kernelSource struct {
	src      string
	bindings map[uint32]wgsl.Binding
}

// kernelSourceText is kernel name's source for the weight or cache type
// decode, its parameter constants first.
func kernelSourceText(name, decode string, subgroups bool) (string, error) {
	prm, ok := kernelParams[name]
	if !ok {
		return "", fmt.Errorf("kernel %s has no parameter struct in kernelParams", name)
	}
	consts, err := paramConsts(prm)
	if err != nil {
		return "", fmt.Errorf("kernel %s: %w", name, err)
	}
	return wgsl.Source(name, decode, subgroups, consts)
}

// source assembles kernel name for the weight or cache type decode, its
// parameter block declared by its struct in kernelParams (params.go).
func (c *compiler) source(name, decode string) (*kernelSource, error) {
	key := name + "/" + decode
	if s := c.be.sources[key]; s != nil {
		return s, nil
	}
	src, err := kernelSourceText(name, decode, c.be.subgroups)
	if err != nil {
		return nil, err
	}
	s := &kernelSource{src: src, bindings: map[uint32]wgsl.Binding{}}
	for _, b := range wgsl.Bindings(src) {
		s.bindings[b.Index] = b
	}
	c.be.sources[key] = s
	return s, nil
}

// merge is a binding read through an earlier one bound to the same buffer.
type merge struct{ from, into uint32 }

// storageEntry is a tensor's binding before merging.
type storageEntry struct {
	wgpu.BindGroupEntry
	tensor *gpu.Tensor
}

// bindOnce returns the merges that leave each buffer bound once where a
// writable binding shares it: every later binding of the buffer is read
// through its first (a read-only input and a stand-in for an absent one,
// read through the output of an op in place, all become that one
// binding). Bindings of a byte range of a buffer (a split weight) address
// their elements from the range's start and are left alone, as are those
// whose element types differ; checkAliasing then reports them.
func bindOnce(ks *kernelSource, es []storageEntry) []merge {
	writable := map[*wgpu.Buffer]bool{}
	for _, e := range es {
		if ks.bindings[e.Binding].Writable {
			writable[e.Buffer] = true
		}
	}
	var ms []merge
	first := map[*wgpu.Buffer]int{}
	for i, e := range es {
		j, seen := first[e.Buffer]
		if !seen {
			first[e.Buffer] = i
			continue
		}
		f, t := ks.bindings[e.Binding], ks.bindings[es[j].Binding]
		whole := e.Size == wgpu.WholeSize && es[j].Size == wgpu.WholeSize
		if writable[e.Buffer] && whole && f.Type == t.Type && f.Name != "" && t.Name != "" {
			ms = append(ms, merge{from: e.Binding, into: es[j].Binding})
		}
	}
	return ms
}

// mergedPipeline compiles (once per backend) a kernel with the given
// bindings merged.
func (c *compiler) mergedPipeline(name, decode string, ks *kernelSource, ms []merge) (*pipeline, error) {
	var key strings.Builder
	key.WriteString(name + "/" + decode)
	for _, m := range ms {
		fmt.Fprintf(&key, "/%d>%d", m.from, m.into)
	}
	if p := c.be.pipelines[key.String()]; p != nil {
		return p, nil
	}
	src := ks.src
	for _, m := range ms {
		var err error
		if src, err = wgsl.Merge(src, m.from, m.into); err != nil {
			return nil, fmt.Errorf("kernel %s: %w", name, err)
		}
	}
	pipe, err := c.be.newPipeline(key.String(), src)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", key.String(), err)
	}
	p := &pipeline{pipe: pipe, bindings: wgsl.Bindings(src)}
	c.be.pipelines[key.String()] = p
	return p, nil
}

// checkAliasing rejects storage entries that bind one buffer more than once
// where one of the bindings is writable, as browsers do (WebGPU's usage
// scope rules for a dispatch), so native runs catch what only a browser
// would otherwise refuse.
func checkAliasing(p *pipeline, es []storageEntry) error {
	writable := map[uint32]bool{}
	for _, b := range p.bindings {
		writable[b.Index] = b.Writable
	}
	for i, e := range es {
		for _, d := range es[:i] {
			if e.Buffer != d.Buffer || !(writable[e.Binding] || writable[d.Binding]) {
				continue
			}
			return fmt.Errorf("binds the buffer of %s at binding %d and of %s at binding %d, one of them writable: WebGPU forbids that",
				d.tensor.Name, d.Binding, e.tensor.Name, e.Binding)
		}
	}
	return nil
}
