//go:build !unix

package gguf

import (
	"errors"
	"os"
)

func mmapFile(*os.File, int64) ([]byte, error) { return nil, errors.New("no mmap on this platform") }

func munmap([]byte) error { return nil }
