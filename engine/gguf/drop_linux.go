package gguf

import "syscall"

// dropPages tells the kernel the mapped pages are not needed now: they
// leave the process's resident set and fault back in from the file if
// touched again.
func dropPages(b []byte) error { return syscall.Madvise(b, syscall.MADV_DONTNEED) }
