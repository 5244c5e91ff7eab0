//go:build cgo || js

package webgpu

import (
	"github.com/oliverbestmann/webgpu/wgpu"

	"github.com/emberllm/ember/gpu"
)

// normTail is what matmul_norm.wgsl's last workgroup does after the
// product: the RMSNorm's epsilon, weight and output, and how the output is
// rounded for the products after it (rmsnorm_round's Block and Mode).
type normTail struct {
	Eps                 float32
	NormWeight, NormOut loc
}

// matmulNormParams are matmul_norm.wgsl's words: matmul's, then the norm
// its last workgroup computes.
type matmulNormParams struct {
	matmulParams
	normTail
}

// normTailRows is the row length the norm in a product's last workgroup
// takes whole chunks of: rmsnorm_round's 256 values, a thread each.
const normTailRows = 256

// normGroupRows is the rows a matmul_norm workgroup takes: WG_ROWS of
// matvec_shape_norm.wgsl.
const normGroupRows = 8

// storageBarrierDevice reports whether the shader compiler gives WGSL's
// storageBarrier device scope, so that one workgroup's stores before it
// are seen by another workgroup that reads them after an atomic count
// (matmul_norm's handoff to its last workgroup). WGSL itself promises
// workgroup scope; wgpu's naga emits a Device-scoped barrier for SPIR-V
// (Vulkan) and a device memory barrier for HLSL (D3D12). Metal's
// threadgroup_barrier(mem_device) and a browser's compiler make no such
// promise, so there the norm keeps its own dispatch.
func (b *Backend) storageBarrierDevice() bool {
	return b.info.BackendType == wgpu.BackendTypeVulkan || b.info.BackendType == wgpu.BackendTypeD3D12
}

// normAfter matches, after a decode product o whose residual add (into
// out) is fused as its epilogue, the RMSNorm of out that rounds its
// output for the products after it: matmul_norm then does that norm in
// the product's last workgroup, a dispatch less (a layer's attention and
// feed-forward norms). skip is the ops the product already takes in. It
// returns the norm and its rounding, or nil.
func (c *compiler) normAfter(o *gpu.MatMul, in, out *gpu.Tensor, skip int) (*gpu.RMSNorm, int, int) {
	if !c.be.fuses(fuseNormTail) || !c.be.storageBarrierDevice() || len(c.rest) <= skip {
		return nil, 0, 0
	}
	n, ok := c.rest[skip].(*gpu.RMSNorm)
	if !ok || n.In != out || n.Weight == nil || n.Out == nil || n.Eps < 0 {
		return nil, 0, 0
	}
	N := o.W.Shape[1]
	if N%normTailRows != 0 || out.Shape != gpu.Shape4(N) || n.Out.Shape != out.Shape || n.Out.Type != tF32 || n.Weight.Type != tF32 || n.Weight.Elements() != N {
		return nil, 0, 0
	}
	// The norm's output is written: it may share memory with nothing the
	// kernel reads or writes otherwise.
	for _, t := range []*gpu.Tensor{o.W, in, o.Out, out, n.Weight} {
		if t.Root() == n.Out.Root() {
			return nil, 0, 0
		}
	}
	mode, bs, ok := c.roundsNextIn(c.rest[skip+1:], n.Out)
	if !ok || mode != packedQ8 || bs != 32 {
		return nil, 0, 0
	}
	return n, mode, bs
}

// lowerNormTail dispatches matmul_norm: the product p (matmul's words,
// epilogue the residual add of other into out) and the norm n after it,
// whose rounded output the products after it find among the rounded
// copies.
func (c *compiler) lowerNormTail(o *gpu.MatMul, n *gpu.RMSNorm, mode, bs int, p matmulParams, dec string, in, other, out *gpu.Tensor, wp part) error {
	N := o.W.Shape[1]
	ls, err := locsOf(n.Weight, n.Out)
	if err != nil {
		return err
	}
	q := roundedTensor(n.Out.Name, N, 1)
	// One count serves every such dispatch of the graph: each starts
	// after the last has set it back to zero.
	if c.done == nil {
		c.done = gpu.NewActivation(c.g.Name+".done", tI32, gpu.Shape4(1))
	}
	prm := matmulNormParams{p, normTail{Eps: n.Eps, NormWeight: ls[0], NormOut: ls[1]}}
	ts := []*gpu.Tensor{o.W, in, o.Out, other, out, n.Weight, n.Out, q, c.done}
	if err := c.dispatchPart("matmul_norm", dec, prm, false, ts, wp, (N+normGroupRows-1)/normGroupRows); err != nil {
		return err
	}
	c.fused++
	c.fresh[roundKeyOf(n.Out, mode, 1)] = roundedAct{q, roundedLoc(N, 1)}
	return nil
}
