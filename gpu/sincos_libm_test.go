package gpu

import (
	"math"
	"testing"
)

// TestSincosLibm checks inputs (small, reduced, large, negative) against
// what glibc's sincosf returned on the development machine, several of
// them where it is not the correctly rounded value.
func TestSincosLibm(t *testing.T) {
	for _, c := range [][3]uint32{
		// x, sin, cos
		{0x428a540b, 0x3d4910d3, 0x3f7fb0fe},
		{0x45ad4e8d, 0xbf49c4df, 0xbf1d8f73},
		{0x4214c4b8, 0xbef89b53, 0x3f5fcbca},
		{0x4251b161, 0x3f5527bf, 0xbf0dc705},
		{0x453dffc1, 0xbf616d38, 0x3ef2a472},
		{0x3f095cd2, 0x3f02dd8f, 0x3f5c05f3},
		{0x3f3dae28, 0x3f2ccb8b, 0x3f3ce2c6},
		{0xbf5a9d50, 0xbf40feee, 0x3f283133},
		{0xbf64cf40, 0xbf478a09, 0x3f205ff9},
	} {
		s, co := sincosLibm(math.Float32frombits(c[0]))
		if math.Float32bits(s) != c[1] || math.Float32bits(co) != c[2] {
			t.Errorf("sincosLibm(%g) = %08x %08x, glibc %08x %08x", math.Float32frombits(c[0]), math.Float32bits(s), math.Float32bits(co), c[1], c[2])
		}
	}
}
