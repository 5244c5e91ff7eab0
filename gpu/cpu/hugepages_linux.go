package cpu

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks the kernel to back the 2 MiB pages b lies in with
// huge pages (MADV_HUGEPAGE: Debian's default THP mode, "madvise", gives
// them only where asked). A product streams its weights once a token, and
// with 4 KiB pages every 4 KiB is a TLB miss and a stop for the hardware
// prefetchers (bench/JOURNAL.md has the measurements).
//
// The range is widened to whole huge pages, which other objects of the
// heap arena share: the advice changes no byte of theirs, and b's first
// and last huge pages get huge pages when first touched (the buffers
// allocated one after another while a model loads touch each page first
// through its own buffer). The range is passed as addresses, never as a
// slice reaching past b (a Go pointer outside its object). A kernel
// without THP refuses, which changes nothing.
func adviseHugePages(b []byte) {
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := start &^ (hugePage - 1)
	hi := (start + uintptr(len(b)) + hugePage - 1) &^ (hugePage - 1)
	syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvHugePage)
}

// madvHugePage is MADV_HUGEPAGE (linux/mman.h), which package syscall
// does not name on every architecture.
const madvHugePage = 14
