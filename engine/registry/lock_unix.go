//go:build unix

package registry

import (
	"errors"
	"os"
	"syscall"
)

// fileLock is an exclusive flock on a lock file. flock is released by the
// kernel when the process dies, so a crashed download never leaves the
// cache locked. The holder deletes the lock file before it lets go, so no
// lock file outlives its download; a process that locked the file just
// deleted finds the path gone (or another file there) and locks afresh.
type fileLock struct {
	f    *os.File
	path string
}

// tryLock takes the lock if it is free and returns nil, nil if another
// process holds it.
func tryLock(path string) (*fileLock, error) { return lockFile(path, syscall.LOCK_EX|syscall.LOCK_NB) }

// waitLock blocks until the lock is free, then takes it.
func waitLock(path string) (*fileLock, error) { return lockFile(path, syscall.LOCK_EX) }

func lockFile(path string, how int) (*fileLock, error) {
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, err
		}
		err = flock(f, how)
		if errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, nil
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		// The lock is ours if the file is still the one at path.
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return &fileLock{f, path}, nil
		}
		f.Close()
	}
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// unlock deletes the lock file, then releases the lock: a process waiting
// on the deleted file sees it is gone and locks the path anew (lockFile),
// so two never hold it at once.
func (l *fileLock) unlock() {
	os.Remove(l.path)
	flock(l.f, syscall.LOCK_UN)
	l.f.Close()
}
