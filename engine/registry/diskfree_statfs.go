//go:build linux || darwin

package registry

import "syscall"

// freeSpace is the space an unprivileged user may still write in dir's
// file system, or -1 when it cannot be told.
func freeSpace(dir string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return -1
	}
	return int64(uint64(st.Bavail) * uint64(st.Bsize))
}
