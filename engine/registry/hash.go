package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
)

// hasher is the SHA-256 of a growing partial file, kept across the attempts
// of one download so that a resume hashes only the new bytes. When the file
// on disk and the hashed prefix disagree (a resume left by an earlier run,
// a restart from zero) it rereads the file.
type hasher struct {
	h hash.Hash
	n int64 // bytes of the partial file hashed so far
}

func newHasher() *hasher { return &hasher{h: sha256.New()} }

// catchUp makes the hash cover exactly the first have bytes of path.
func (s *hasher) catchUp(path string, have int64) error {
	if s.n == have {
		return nil
	}
	s.h.Reset()
	s.n = 0
	if have == 0 {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(s.h, io.LimitReader(f, have))
	s.n = n
	if err == nil && n != have {
		err = fmt.Errorf("%s: read %d of %d bytes", path, n, have)
	}
	return err
}

func (s *hasher) Write(b []byte) (int, error) {
	s.n += int64(len(b))
	return s.h.Write(b)
}

func (s *hasher) sum() string { return hex.EncodeToString(s.h.Sum(nil)) }
