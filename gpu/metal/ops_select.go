package metal

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// routeParams are route.metal's: E experts choosing K, the gating,
// whether a selection bias is bound, whether the chosen weights are
// normalised, their scale.
type routeParams struct {
	E, K, Gating         int
	HasBias, Norm        bool
	Scale                float32
	Logits, IDs, Weights loc
}

func (c *compiler) lowerRoute(o *gpu.Route) error {
	if err := gpu.CheckRoute(o); err != nil {
		return err
	}
	E, T, K := o.Logits.Shape[0], o.Logits.Shape[1], o.K
	if E > 512 || K > 32 {
		return fmt.Errorf("%d experts choosing %d: the Metal router takes at most 512 and 32", E, K)
	}
	bias := o.Logits
	if o.Bias != nil {
		if o.Bias.Kind == gpu.View || !o.Bias.Contiguous() {
			return fmt.Errorf("Bias %s must be packed", o.Bias.Name)
		}
		bias = o.Bias
	}
	ops, err := c.operands(o.Logits, bias, o.IDs, o.Weights)
	if err != nil {
		return err
	}
	if o.Bias != nil && ops[1].loc.Off != 0 {
		// The kernel reads the bias from its argument's start.
		return fmt.Errorf("Bias %s must start its buffer", o.Bias.Name)
	}
	p := routeParams{E: E, K: K, Gating: int(o.Gating), HasBias: o.Bias != nil, Norm: o.Norm, Scale: o.Scale, Logits: ops[0].loc, IDs: ops[2].loc, Weights: ops[3].loc}
	return c.dispatch("route", "", p, false, args(ops...), T)
}

// weightedSumParams are weighted_sum.metal's: N values of S slots of T
// tokens.
type weightedSumParams struct {
	N, S, T          int
	In, Weights, Out loc
}

func (c *compiler) lowerWeightedSum(o *gpu.WeightedSum) error {
	for _, e := range []error{gpu.WantType(o.In, "In", tF32), gpu.WantType(o.Weights, "Weights", tF32), gpu.WantType(o.Out, "Out", tF32)} {
		if e != nil {
			return e
		}
	}
	N, S, T := o.In.Shape[0], o.In.Shape[1], o.In.Shape[2]
	if o.In.Shape[3] != 1 || o.Weights.Shape != gpu.Shape4(S, T) || o.Out.Shape != gpu.Shape4(N, T) {
		return fmt.Errorf("In %v, Weights %v, Out %v: want {N, S, T}, {S, T}, {N, T}", o.In.Shape, o.Weights.Shape, o.Out.Shape)
	}
	ops, err := c.operands(o.In, o.Weights, o.Out)
	if err != nil {
		return err
	}
	p := weightedSumParams{N: N, S: S, T: T, In: ops[0].loc, Weights: ops[1].loc, Out: ops[2].loc}
	return c.dispatch("weighted_sum", "", p, false, args(ops...), groupsOf(N*T, 256))
}

// topKMax is the largest K of the Metal top-k: the candidates it sorts
// fit in 8 KiB of threadgroup memory (msl/topk.metal's TOPK_CAP).
const topKMax = 1024

// topKParams are topk.metal's: the K largest of rows of N values.
type topKParams struct {
	N, K          int
	In, IDs, Vals loc
}

func (c *compiler) lowerTopK(o *gpu.TopK) error {
	if err := gpu.CheckTopK(o); err != nil {
		return err
	}
	V, T, K := o.In.Shape[0], o.In.Shape[1], o.K
	if K > topKMax {
		return fmt.Errorf("top %d of %d values: the Metal top-k takes at most K = %d", K, V, topKMax)
	}
	ops, err := c.operands(o.In, o.IDs, o.Vals)
	if err != nil {
		return err
	}
	p := topKParams{N: V, K: K, In: ops[0].loc, IDs: ops[1].loc, Vals: ops[2].loc}
	return c.dispatch("topk", "", p, false, args(ops...), T)
}
