//go:build !linux

package cpu

// adviseHugePages does nothing where the kernel has no madvise(2) hint
// for huge pages (macOS maps large anonymous regions in superpages on its
// own).
func adviseHugePages([]byte) {}
