//go:build !unix

package registry

import (
	"errors"
	"io/fs"
	"os"
	"time"
)

// fileLock, where flock is missing, is the existence of the lock file,
// created exclusively. Unlike flock it outlives a crashed process; the
// waiting message names the file to delete in that case.
type fileLock struct{ path string }

func tryLock(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	f.Close()
	return &fileLock{path}, nil
}

func waitLock(path string) (*fileLock, error) {
	for {
		l, err := tryLock(path)
		if l != nil || err != nil {
			return l, err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (l *fileLock) unlock() { os.Remove(l.path) }
