//go:build cgo || js

package webgpu

import (
	"fmt"

	"github.com/emberllm/ember/gpu"
)

// part is a run of a weight's rows bound on its own when the whole tensor
// exceeds the storage binding limit (browsers may allow only 128 MiB, less
// than an 8B model's output head): rows r0..r1 (exclusive), bound as bytes
// [off, off+size) of the buffer (size 0: the whole buffer), row r0 starting
// at byte base of that binding.
type part struct {
	r0, r1    int
	off, size uint64
	base      int
	last      bool
}

// bindAlign is WebGPU's largest storage offset alignment; offsets that are
// multiples of it suit every adapter.
const bindAlign = 256

// bindingLimit is the largest storage binding, or the smaller one a test
// asked for.
func (b *Backend) bindingLimit() uint64 {
	if b.maxBinding > 0 && b.maxBinding < b.limits.MaxStorageBufferBindingSize {
		return b.maxBinding
	}
	return b.limits.MaxStorageBufferBindingSize
}

// rowParts splits w, rows of rowBytes each, into parts that fit a binding:
// one part with the whole buffer when it fits.
func (c *compiler) rowParts(w *gpu.Tensor, rowBytes, rows int) ([]part, error) {
	lim := c.be.bindingLimit()
	total := padded(rowBytes * rows)
	if total <= lim {
		return []part{{r0: 0, r1: rows, last: true}}, nil
	}
	if w.Kind == gpu.View {
		return nil, fmt.Errorf("%s: views of weights larger than a binding (%d MiB) are not supported", w.Name, lim>>20)
	}
	per := int((lim - bindAlign) / uint64(rowBytes))
	if per < 1 {
		return nil, fmt.Errorf("%s: a row of %d bytes does not fit a binding of %d", w.Name, rowBytes, lim)
	}
	var ps []part
	for r0 := 0; r0 < rows; r0 += per {
		r1 := min(rows, r0+per)
		start := uint64(r0 * rowBytes)
		off := start &^ (bindAlign - 1)
		end := min(total, (uint64(r1*rowBytes)+3)&^3)
		ps = append(ps, part{r0: r0, r1: r1, off: off, size: end - off, base: int(start - off), last: r1 == rows})
	}
	return ps, nil
}

// shiftRows moves a location's start by r elements of dimension 0.
func shiftRows(l loc, r int) loc {
	l.off += uint32(r) * l.stride[0]
	return l
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
