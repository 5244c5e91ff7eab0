package cpu

import (
	"math"
	"testing"
)

// TestExpLibm checks inputs where glibc's expf (as the C library on the
// development machine returned it) is not the correctly rounded value.
func TestExpLibm(t *testing.T) {
	for _, c := range [][2]uint32{
		{0x4223fee4, 0x5d0deb83}, {0x429aefb0, 0x775933ff}, {0x408b38da, 0x429b105a},
		{0xbe9f1d60, 0x3f3b9e23}, {0xc234a0d6, 0x1ee70f63}, {0x40254748, 0x4153ad78},
		{0x00000000, 0x3f800000}, {0xc2d00000, 0x00000000}, {0x42c80000, 0x7f800000},
	} {
		x := math.Float32frombits(c[0])
		if got := math.Float32bits(expLibm(x)); got != c[1] {
			t.Errorf("expLibm(%g) = %08x, glibc %08x", x, got, c[1])
		}
	}
}
