//go:build cgo || js

package webgpu

import (
	"strings"
	"testing"

	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/gpu"
)

// A dispatch whose tensors share a buffer binds it once, and one that
// cannot (element types that differ) is refused when it is compiled, as a
// browser would refuse it when it runs.
func TestBindOnce(t *testing.T) {
	be, err := Open(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	b := be.(*Backend)
	g := gpu.NewGraph("bind", 1)
	x := g.New("x", gguf.F32, 64)
	c := &compiler{be: b, g: g, p: &program{be: b}, buffers: map[*gpu.Tensor]*wgpu.Buffer{}}
	defer c.p.release()

	if err := c.dispatch("copy", "", copyParams{}, false, []*gpu.Tensor{x, x}, 1); err != nil {
		t.Fatalf("copy in place: %v", err)
	}
	var pipe *pipeline
	for key, p := range b.pipelines {
		if strings.HasPrefix(key, "copy/") {
			pipe = p
		}
	}
	if pipe == nil || len(pipe.bindings) != 1 {
		t.Errorf("copy in place: the kernel declares %v, want one storage binding", pipe)
	}

	// matmul reads X as vec4<f32> and writes O as f32: no one binding
	// serves both.
	err = c.dispatch("matmul", "f32", matmulParams{}, false, []*gpu.Tensor{x, x, x, x, x}, 1)
	if err == nil || !strings.Contains(err.Error(), "WebGPU forbids") {
		t.Errorf("matmul with In, Out and W one buffer: %v, want it refused", err)
	}
}
