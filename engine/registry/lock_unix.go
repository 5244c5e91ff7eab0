//go:build unix

package registry

import (
	"errors"
	"os"
	"syscall"
)

// fileLock is an exclusive flock on a lock file. flock is released by the
// kernel when the process dies, so a crashed download never leaves the
// cache locked.
type fileLock struct{ f *os.File }

// tryLock takes the lock if it is free and returns nil, nil if another
// process holds it.
func tryLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	err = flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		f.Close()
		return nil, nil
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &fileLock{f}, nil
}

// waitLock blocks until the lock is free, then takes it.
func waitLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := flock(f, syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return &fileLock{f}, nil
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

// unlock releases the lock. The lock file itself stays: deleting it would
// let a waiting process lock the deleted file while a newcomer locks a new
// one, and both would download at once.
func (l *fileLock) unlock() {
	flock(l.f, syscall.LOCK_UN)
	l.f.Close()
}
