//go:build unix

package gguf

import (
	"os"
	"syscall"
)

func mmapFile(f *os.File, size int64) ([]byte, error) {
	if size == 0 || int64(int(size)) != size {
		return nil, syscall.EINVAL
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
}

func munmap(b []byte) error { return syscall.Munmap(b) }

// dropPages tells the kernel the mapped pages are not needed now: they
// leave the process's resident set and fault back in from the file if
// touched again.
func dropPages(b []byte) error { return syscall.Madvise(b, syscall.MADV_DONTNEED) }
