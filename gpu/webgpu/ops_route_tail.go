//go:build cgo || js

package webgpu

import (
	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// matmulRouteParams are matmul_route.wgsl's words: matmul's for the
// router's product, then route.wgsl's for the choice its last workgroup
// makes (P_ROUTE_...).
type matmulRouteParams struct {
	matmulParams
	Route routeParams
}

// storageBarrierDevice reports whether the shader compiler gives WGSL's
// storageBarrier device scope, so that one workgroup's stores before it
// are seen by another workgroup that reads them after an atomic count
// (matmul_route's handoff to its last workgroup). WGSL itself promises
// workgroup scope; wgpu's naga emits a Device-scoped barrier for SPIR-V
// (Vulkan) and a device memory barrier for HLSL (D3D12). Metal's
// threadgroup_barrier(mem_device) and a browser's compiler make no such
// promise, so there the route keeps its own dispatch.
func (b *Backend) storageBarrierDevice() bool {
	return b.info.BackendType == wgpu.BackendTypeVulkan || b.info.BackendType == wgpu.BackendTypeD3D12
}

// routeAfter matches, after a decode product o of one token (its
// output's rows the experts), the Route of o's output: matmul_route then
// makes the choice in the product's last workgroup, a dispatch less a MoE
// layer. It returns the route, or nil.
func (c *compiler) routeAfter(o *gpu.MatMul) *gpu.Route {
	if !c.be.fuses(fuseRouteTail) || !c.be.storageBarrierDevice() || len(c.rest) == 0 {
		return nil
	}
	r, ok := c.rest[0].(*gpu.Route)
	if !ok || r.Logits != o.Out || r.Logits.Shape != gpu.Shape4(o.W.Shape[1], 1) || gpu.CheckRoute(r) != nil {
		return nil
	}
	if r.Logits.Shape[0] > 512 || r.K > 32 || r.Bias != nil && (r.Bias.Kind == gpu.View || !r.Bias.Contiguous()) {
		return nil
	}
	return r
}

// lowerRouteTail dispatches matmul_route: the product p (matmul's words,
// no epilogue) and the route r after it.
func (c *compiler) lowerRouteTail(o *gpu.MatMul, r *gpu.Route, p matmulParams, dec string, in *gpu.Tensor, wp part) error {
	ls, err := locsOf(r.Logits, r.IDs, r.Weights)
	if err != nil {
		return err
	}
	bias := r.Logits
	if r.Bias != nil {
		bias = r.Bias
	}
	// One count serves every such dispatch of the graph: each starts
	// after the last has set it back to zero.
	if c.done == nil {
		c.done = gpu.NewActivation(c.g.Name+".done", tI32, gpu.Shape4(1))
	}
	rp := routeParams{E: r.Logits.Shape[0], K: r.K, Gating: int(r.Gating), HasBias: r.Bias != nil, Norm: r.Norm, Scale: r.Scale, Logits: ls[0], IDs: ls[1], Weights: ls[2]}
	ts := []*gpu.Tensor{o.W, in, o.Out, bias, r.IDs, r.Weights, c.done}
	if err := c.dispatchPart("matmul_route", dec, matmulRouteParams{p, rp}, false, ts, wp, rowGroups(o.W.Shape[1])); err != nil {
		return err
	}
	c.fused = 1
	return nil
}
