package gguf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"unsafe"
)

// Reader gives random access to a GGUF file's tensors. On unix the file is
// memory-mapped and TensorData returns slices of the mapping (no copy);
// elsewhere it reads through io.ReaderAt.
type Reader struct {
	*File
	ra     io.ReaderAt
	size   int64
	mapped []byte // the whole file when memory-mapped
	closer io.Closer
}

// Open opens and parses a GGUF file.
func Open(path string) (*Reader, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	if st.IsDir() {
		fh.Close()
		return nil, fmt.Errorf("%s is a directory, not a GGUF file", path)
	}
	if !st.Mode().IsRegular() {
		// A device, pipe or socket has no size to parse by (/dev/zero
		// would read as an endless run of zeros).
		fh.Close()
		return nil, fmt.Errorf("%s is not a regular file (%s), so not a GGUF file", path, fileKind(st.Mode()))
	}
	r, err := NewReader(fh, st.Size())
	if err != nil {
		fh.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.closer = fh
	if m, err := mmapFile(fh, st.Size()); err == nil {
		r.mapped = m
	}
	return r, nil
}

func fileKind(m os.FileMode) string {
	switch {
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a block device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}

// NewReader parses the header of a file of the given size read through ra.
func NewReader(ra io.ReaderAt, size int64) (*Reader, error) {
	if size < 0 {
		return nil, fmt.Errorf("gguf: NewReader needs the file size, got %d (use NewStream for a stream of unknown length)", size)
	}
	p, _ := bufferedParser(io.NewSectionReader(ra, 0, size), size)
	f, err := p.header()
	if err != nil {
		return nil, err
	}
	return &Reader{File: f, ra: ra, size: size}, nil
}

// Size is the file's length in bytes.
func (r *Reader) Size() int64 { return r.size }

// Mapped reports whether tensor data comes from a memory mapping.
func (r *Reader) Mapped() bool { return r.mapped != nil }

// DropData releases the resident pages lying wholly inside b, a slice
// TensorData returned, once a backend has copied it: loading then never
// holds a tensor twice for long. Other slices are ignored.
func (r *Reader) DropData(b []byte) {
	if r.mapped == nil || len(b) == 0 {
		return
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(r.mapped)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if p < base || p+uintptr(len(b)) > base+uintptr(len(r.mapped)) {
		return
	}
	page := uintptr(os.Getpagesize())
	lo := (p - base + page - 1) &^ (page - 1)
	hi := (p - base + uintptr(len(b))) &^ (page - 1)
	if hi > lo {
		dropPages(r.mapped[lo:hi])
	}
}

// DropPages releases the mapping's resident pages once a backend has
// copied the weights out of them, so the file does not count twice in the
// process's memory; slices from TensorData stay valid (pages fault back
// in from the file).
func (r *Reader) DropPages() error {
	if r.mapped == nil {
		return nil
	}
	return dropPages(r.mapped)
}

// span checks that t lies inside the file; the header parser guarantees
// it for the file's own tensors, this guards infos built by hand.
func (r *Reader) span(t *TensorInfo) (start, end uint64, err error) {
	start = r.DataOffset + t.Offset
	end = start + t.Size
	if start < r.DataOffset || end < start || end > uint64(r.size) {
		return 0, 0, fmt.Errorf("gguf: tensor %q (%d bytes at data offset %d) lies outside the file", t.Name, t.Size, t.Offset)
	}
	return start, end, nil
}

// TensorData returns the bytes of t: a slice of the mapping when mapped
// (read-only: writing to it faults; valid only until Close), otherwise a
// fresh copy.
func (r *Reader) TensorData(t *TensorInfo) ([]byte, error) {
	start, end, err := r.span(t)
	if err != nil {
		return nil, err
	}
	if r.mapped != nil {
		return r.mapped[start:end:end], nil
	}
	if t.Size > math.MaxInt {
		return nil, fmt.Errorf("gguf: tensor %q (%d bytes) is too large for this platform's memory", t.Name, t.Size)
	}
	b := make([]byte, t.Size)
	// ReaderAt may report io.EOF along with a full read at the end of the
	// file; only a short read is an error.
	if n, err := r.ra.ReadAt(b, int64(start)); n < len(b) {
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("gguf: reading tensor %q: %w", t.Name, err)
	}
	return b, nil
}

// TensorReader returns a reader of t's bytes without loading them.
func (r *Reader) TensorReader(t *TensorInfo) io.Reader {
	start, end, err := r.span(t)
	if err != nil {
		return errReader{err}
	}
	return io.NewSectionReader(r.ra, int64(start), int64(end-start))
}

// Close releases the mapping and the file.
func (r *Reader) Close() error {
	var err error
	if r.mapped != nil {
		err = munmap(r.mapped)
		r.mapped = nil
	}
	if r.closer != nil {
		if e := r.closer.Close(); err == nil {
			err = e
		}
		r.closer = nil
	}
	return err
}

// errReader is a reader that only fails, for a tensor that cannot be read.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
