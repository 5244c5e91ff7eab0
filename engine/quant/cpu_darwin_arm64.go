package quant

import "syscall"

// arm64Features asks the kernel which optional features this Apple CPU
// has.
func arm64Features() (dotprod, i8mm bool) {
	has := func(name string) bool {
		v, err := syscall.SysctlUint32(name)
		return err == nil && v != 0
	}
	return has("hw.optional.arm.FEAT_DotProd"), has("hw.optional.arm.FEAT_I8MM")
}
