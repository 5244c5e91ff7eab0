//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"io"
	"syscall/js"
)

// jsFile is a model file read through a JS object the worker hands over:
// {size, name, read(offset, length)}, read returning the bytes as a
// Uint8Array synchronously (a FileSystemSyncAccessHandle of the
// origin-private file system, FileReaderSync over a picked file, or a
// synchronous range request, all of which a worker may do). It is the
// io.ReaderAt gguf.NewReader takes.
type jsFile struct {
	v    js.Value
	size int64
	name string
}

// readPiece bounds one read call, so the JS side never holds a whole
// tensor either.
const readPiece = 8 << 20

func newJSFile(v js.Value) (*jsFile, error) {
	if v.Type() != js.TypeObject || v.Get("read").Type() != js.TypeFunction {
		return nil, errors.New("the model source is not an object with a read(offset, length) function")
	}
	size := v.Get("size")
	if size.Type() != js.TypeNumber || size.Float() < 0 {
		return nil, errors.New("the model source has no size")
	}
	name := "model"
	if n := v.Get("name"); n.Type() == js.TypeString && n.String() != "" {
		name = n.String()
	}
	return &jsFile{v: v, size: int64(size.Float()), name: name}, nil
}

func (f *jsFile) ReadAt(p []byte, off int64) (n int, err error) {
	if off < 0 {
		return 0, fmt.Errorf("%s: read at negative offset %d", f.name, off)
	}
	for n < len(p) {
		if off+int64(n) >= f.size {
			return n, io.EOF
		}
		want := min(len(p)-n, readPiece, int(f.size-off-int64(n)))
		got, err := f.read(off+int64(n), want)
		if err != nil {
			return n, err
		}
		if got.Length() == 0 {
			return n, fmt.Errorf("%s: no bytes at offset %d of %d", f.name, off+int64(n), f.size)
		}
		n += js.CopyBytesToGo(p[n:], got)
	}
	return n, nil
}

// read calls the source's read, turning a thrown error into a Go one.
func (f *jsFile) read(off int64, length int) (v js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: reading %d bytes at %d: %v", f.name, length, off, r)
		}
	}()
	v = f.v.Call("read", float64(off), length)
	if v.Type() != js.TypeObject || v.Get("length").Type() != js.TypeNumber {
		return js.Value{}, fmt.Errorf("%s: read(%d, %d) gave no byte array", f.name, off, length)
	}
	return v, nil
}
