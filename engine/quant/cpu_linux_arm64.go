package quant

import (
	"encoding/binary"
	"os"
)

// arm64Features reads the kernel's hardware capabilities from the
// auxiliary vector (under qemu-user, the emulated CPU's).
func arm64Features() (dotprod, i8mm bool) {
	b, err := os.ReadFile("/proc/self/auxv")
	if err != nil {
		return false, false
	}
	const atHWCap, atHWCap2 = 16, 26
	const hwcapASIMDDP, hwcap2I8MM = 1 << 20, 1 << 13
	var hw, hw2 uint64
	for ; len(b) >= 16; b = b[16:] {
		switch binary.LittleEndian.Uint64(b) {
		case atHWCap:
			hw = binary.LittleEndian.Uint64(b[8:])
		case atHWCap2:
			hw2 = binary.LittleEndian.Uint64(b[8:])
		}
	}
	return hw&hwcapASIMDDP != 0, hw2&hwcap2I8MM != 0
}
