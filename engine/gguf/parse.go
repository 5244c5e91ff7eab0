package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// FormatError is a malformed-file error with the byte offset where the
// problem was found.
type FormatError struct {
	Offset int64
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("gguf: at offset %d: %s", e.Offset, e.Msg)
}

// parser reads the header from a stream, counting bytes. size is the total
// file size when known (random access), or -1 for a stream; it lets counts
// and lengths be checked against what is left before anything is allocated.
type parser struct {
	r    io.Reader
	pos  int64
	size int64
	buf  [8]byte
}

func (p *parser) fail(format string, args ...any) error {
	return &FormatError{p.pos, fmt.Sprintf(format, args...)}
}

func (p *parser) failAt(at int64, format string, args ...any) error {
	return &FormatError{at, fmt.Sprintf(format, args...)}
}

// readErr turns a failed read into an error naming what was being read:
// running out of bytes is a truncated file, anything else an I/O error.
func (p *parser) readErr(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return p.fail("file truncated inside %s", what)
	}
	return p.fail("reading %s: %v", what, err)
}

func (p *parser) readFull(b []byte, what string) error {
	k, err := io.ReadFull(p.r, b)
	p.pos += int64(k)
	if err != nil {
		return p.readErr(err, what)
	}
	return nil
}

func (p *parser) read(n int, what string) ([]byte, error) {
	b := p.buf[:n]
	if err := p.readFull(b, what); err != nil {
		return nil, err
	}
	return b, nil
}

func (p *parser) u32(what string) (uint32, error) {
	b, err := p.read(4, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func (p *parser) u64(what string) (uint64, error) {
	b, err := p.read(8, what)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b), nil
}

// remaining is the number of bytes left when the size is known.
func (p *parser) remaining() (int64, bool) {
	if p.size < 0 {
		return 0, false
	}
	return max(p.size-p.pos, 0), true
}

// checkFits refuses n items of at least minBytes each when the file is too
// short to hold them.
func (p *parser) checkFits(what string, n uint64, minBytes uint64) error {
	if rem, ok := p.remaining(); ok && minBytes > 0 && n > uint64(rem)/minBytes {
		return p.fail("%s count %d cannot fit in the %d bytes left", what, n, rem)
	}
	return nil
}

// readChunk is how much a read of a declared length allocates ahead of the
// data actually arriving.
const readChunk = 64 << 10

// readBytes reads n bytes, growing the buffer as data arrives so that a
// huge length on a short stream fails at end of file, not at allocation.
func (p *parser) readBytes(n uint64, what string) ([]byte, error) {
	out := make([]byte, 0, min(n, readChunk))
	for uint64(len(out)) < n {
		m := int(min(n-uint64(len(out)), readChunk))
		start := len(out)
		out = append(out, make([]byte, m)...)
		if err := p.readFull(out[start:], what); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// str reads a length-prefixed string of at most limit bytes.
func (p *parser) str(limit uint64, what string) (string, error) {
	at := p.pos
	n, err := p.u64("the " + what + " length")
	if err != nil {
		return "", err
	}
	if n > limit {
		return "", p.failAt(at, "%s length %d exceeds the limit of %d", what, n, limit)
	}
	if rem, ok := p.remaining(); ok && n > uint64(rem) {
		return "", p.failAt(at, "%s length %d runs past the end of the file (%d bytes left)", what, n, rem)
	}
	b, err := p.readBytes(n, fmt.Sprintf("a %d-byte %s", n, what))
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// bufferedParser wraps r for header parsing; the caller must keep using the
// returned reader for the data that follows.
func bufferedParser(r io.Reader, size int64) (*parser, *bufio.Reader) {
	n := 1 << 16
	if size >= 0 && size < int64(n) {
		n = int(size) // bufio rounds tiny sizes up to its minimum
	}
	br := bufio.NewReaderSize(r, n)
	return &parser{r: br, size: size}, br
}
