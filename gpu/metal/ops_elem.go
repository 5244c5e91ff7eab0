package metal

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// binaryParams are the elementwise kernels' (add, mul, scale, swiglu:
// parts/binary.metal): Out = apply(A, B) over Out's shape, S the scale.
type binaryParams struct {
	Count     int
	Shape     [4]int
	A, B, Out loc
	S         float32
}

func (c *compiler) lowerBinary(name string, a, b, out *gpu.Tensor, s float32) error {
	for _, x := range []struct {
		t    *gpu.Tensor
		what string
	}{{a, "A"}, {b, "B"}, {out, "Out"}} {
		if err := gpu.WantType(x.t, x.what, tF32); err != nil {
			return err
		}
	}
	if a.Shape != out.Shape {
		return fmt.Errorf("%s %v and Out %s %v differ in shape", a.Name, a.Shape, out.Name, out.Shape)
	}
	ops, err := c.operands(a, b, out)
	if err != nil {
		return err
	}
	lb := ops[1].loc
	for i := range 4 {
		switch {
		case b.Shape[i] == out.Shape[i]:
		case b.Shape[i] == 1 && (name == "mul" || name == "add"):
			lb.Stride[i] = 0 // broadcast: a bias over tokens, a scale
		default:
			return fmt.Errorf("B %s %v does not match Out %v", b.Name, b.Shape, out.Shape)
		}
	}
	p := binaryParams{Count: out.Elements(), Shape: out.Shape, A: ops[0].loc, B: lb, Out: ops[2].loc, S: s}
	return c.dispatch(name, "", p, false, args(ops...), groupsOf(out.Elements(), 256))
}

// rmsNormParams are rmsnorm.metal's: rows of N values, In's dims 1 and 2
// (to split a row index), the norm's eps and weight.
type rmsNormParams struct {
	N, D1, D2       int
	Eps             float32
	HasWeight       bool
	In, Out, Weight loc
}

func (c *compiler) lowerRMSNorm(o *gpu.RMSNorm) error {
	if err := gpu.WantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := gpu.WantType(o.Out, "Out", tF32); err != nil {
		return err
	}
	if o.In.Shape != o.Out.Shape {
		return fmt.Errorf("In %v and Out %v differ in shape", o.In.Shape, o.Out.Shape)
	}
	if !(o.Eps >= 0) {
		return fmt.Errorf("eps %g is negative", o.Eps)
	}
	n := o.In.Shape[0]
	w := o.In
	if o.Weight != nil {
		if err := gpu.WantType(o.Weight, "Weight", tF32); err != nil {
			return err
		}
		if o.Weight.Elements() != n {
			return fmt.Errorf("Weight %s has %d elements, want %d", o.Weight.Name, o.Weight.Elements(), n)
		}
		w = o.Weight
	}
	ops, err := c.operands(o.In, w, o.Out)
	if err != nil {
		return err
	}
	p := rmsNormParams{N: n, D1: o.In.Shape[1], D2: o.In.Shape[2], Eps: o.Eps, HasWeight: o.Weight != nil, In: ops[0].loc, Weight: ops[1].loc, Out: ops[2].loc}
	return c.dispatch("rmsnorm", "", p, false, args(ops...), o.In.Rows())
}

// copyParams are copy.metal's: N elements, In's and Out's shapes and
// locations, which of them is F16.
type copyParams struct {
	N               int
	InShape         [4]int
	In              loc
	OutShape        [4]int
	Out             loc
	InHalf, OutHalf bool
}

func (c *compiler) lowerCopy(o *gpu.Copy) error {
	if err := gpu.WantType(o.In, "In", tF32, tF16); err != nil {
		return err
	}
	if err := gpu.WantType(o.Out, "Out", tF32, tF16); err != nil {
		return err
	}
	n := o.In.Elements()
	if o.Out.Elements() != n {
		return fmt.Errorf("In %v and Out %v hold different numbers of elements", o.In.Shape, o.Out.Shape)
	}
	ops, err := c.operands(o.In, o.Out)
	if err != nil {
		return err
	}
	p := copyParams{N: n, InShape: o.In.Shape, In: ops[0].loc, OutShape: o.Out.Shape, Out: ops[1].loc, InHalf: o.In.Type == tF16, OutHalf: o.Out.Type == tF16}
	return c.dispatch("copy", "", p, false, args(ops...), groupsOf(n, 256))
}

// argmaxParams are argmax.metal's: rows of N values.
type argmaxParams struct {
	N       int
	In, Out loc
}

func (c *compiler) lowerArgmax(o *gpu.Argmax) error {
	if err := gpu.WantType(o.In, "In", tF32); err != nil {
		return err
	}
	if err := gpu.WantType(o.Out, "Out", tI32); err != nil {
		return err
	}
	V, T := o.In.Shape[0], o.In.Rows()
	if o.Out.Elements() != T {
		return fmt.Errorf("Out %s has %d elements for %d rows", o.Out.Name, o.Out.Elements(), T)
	}
	ops, err := c.operands(o.In, o.Out)
	if err != nil {
		return err
	}
	p := argmaxParams{N: V, In: ops[0].loc, Out: ops[1].loc}
	return c.dispatch("argmax", "", p, false, args(ops...), T)
}
