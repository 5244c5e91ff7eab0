//go:build !linux

package gguf

// dropPages does nothing where the syscall package has no madvise: the
// pages stay resident, as before.
func dropPages([]byte) error { return nil }
