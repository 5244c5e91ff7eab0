package gpu

import (
	"errors"
	"fmt"
)

// Validate checks what every backend needs of a graph before lowering it:
// tensors of sane shape that belong to the graph, views inside their base,
// no nil ops, and no activation read before an op writes it. Backends add
// their own checks (buffer ownership, read-only weights, op operands).
func Validate(g *Graph) error {
	if g == nil {
		return errors.New("nil graph")
	}
	for i, t := range g.Tensors {
		if t == nil {
			return fmt.Errorf("tensor %d is nil", i)
		}
		if t.ID != i {
			return fmt.Errorf("tensor %s has id %d at index %d", t.Name, t.ID, i)
		}
		for _, d := range t.Shape {
			if d < 1 {
				return fmt.Errorf("tensor %s has shape %v", t.Name, t.Shape)
			}
		}
		if t.Shape[0]%t.Type.BlockSize() != 0 {
			return fmt.Errorf("tensor %s: rows of %d are not whole %s blocks", t.Name, t.Shape[0], t.Type)
		}
		switch t.Kind {
		case Activation:
			if !t.Contiguous() {
				return fmt.Errorf("activation %s has non-contiguous strides %v", t.Name, t.Stride)
			}
		case External:
			if t.Buf == nil {
				return fmt.Errorf("tensor %s is external but has no buffer", t.Name)
			}
			if t.Buf.Type() != t.Type || t.Buf.Shape() != t.Shape || !t.Contiguous() {
				return fmt.Errorf("tensor %s (%s%v) does not match its buffer (%s%v)", t.Name, t.Type, t.Shape, t.Buf.Type(), t.Buf.Shape())
			}
		case View:
			b := t.Base
			if b == nil || b.Kind == View || !g.owns(b) {
				return fmt.Errorf("view %s must alias a non-view tensor of graph %s", t.Name, g.Name)
			}
			if b.Type != t.Type {
				return fmt.Errorf("view %s is %s but its base %s is %s", t.Name, t.Type, b.Name, b.Type)
			}
			lo, hi, err := Extent(t)
			if err != nil {
				return fmt.Errorf("view %s: %w", t.Name, err)
			}
			if lo < 0 || hi > Bytes(b.Type, b.Shape) {
				return fmt.Errorf("view %s spans bytes %d..%d of %s, which has %d", t.Name, lo, hi, b.Name, Bytes(b.Type, b.Shape))
			}
		default:
			return fmt.Errorf("tensor %s has unknown kind %d", t.Name, t.Kind)
		}
	}
	written := map[*Tensor]bool{}
	for i, op := range g.Ops {
		if op == nil {
			return fmt.Errorf("op %d is nil", i)
		}
		for _, t := range op.Inputs() {
			if !g.owns(t) {
				return fmt.Errorf("op %d (%s): tensor %s does not belong to graph %s", i, op.OpName(), t.Name, g.Name)
			}
			if r := t.Root(); r.Kind == Activation && !written[r] {
				return fmt.Errorf("op %d (%s): reads activation %s before any op writes it", i, op.OpName(), t.Name)
			}
		}
		for _, t := range op.Outputs() {
			if !g.owns(t) {
				return fmt.Errorf("op %d (%s): tensor %s does not belong to graph %s", i, op.OpName(), t.Name, g.Name)
			}
			written[t.Root()] = true
		}
	}
	return nil
}

func (g *Graph) owns(t *Tensor) bool {
	return t != nil && t.ID >= 0 && t.ID < len(g.Tensors) && g.Tensors[t.ID] == t
}

// Extent is the byte range [lo, hi) a tensor touches in its root's memory.
func Extent(t *Tensor) (lo, hi int, err error) {
	if t.Kind != View {
		return 0, Bytes(t.Type, t.Shape), nil
	}
	for d := 0; d < 4; d++ {
		if t.Stride[d] < 0 {
			return 0, 0, fmt.Errorf("negative stride %v", t.Stride)
		}
	}
	lo, hi = t.Off, t.Off
	hi += (t.Shape[0]/t.Type.BlockSize()-1)*t.Stride[0] + t.Type.TypeSize()
	for d := 1; d < 4; d++ {
		hi += (t.Shape[d] - 1) * t.Stride[d]
	}
	return lo, hi, nil
}
