//go:build cgo || js

package webgpu

// fusion names a family of kernels that each do the work of several ops.
// All are on in a backend Open returns; tests turn one off (Backend.off)
// to compare its kernels with the dispatches they replace, bit for bit.
type fusion uint8

const (
	// fuseRoundingProducts: decode products that round their output for
	// the product after them (ops_rounding_product.go).
	fuseRoundingProducts fusion = 1 << iota
	// fuseAttentionHeads: a prefill's four query heads of one key head in
	// one workgroup (attention_heads.wgsl).
	fuseAttentionHeads
	// fuseRouteTail: a decode step's router product whose last workgroup
	// also chooses the experts (ops_route_tail.go).
	fuseRouteTail
)

// fuses reports whether the compiler may use fusion f.
func (b *Backend) fuses(f fusion) bool { return b.off&f == 0 }
