package gguf

import (
	"errors"
	"fmt"
	"io"
)

// Stream reads a GGUF file front to back: the header, then each tensor's
// bytes in file order. Nothing is buffered beyond a small read buffer, so a
// model can flow from the network into device memory in chunks.
type Stream struct {
	File  *File
	r     io.Reader
	pos   int64 // absolute position in the file
	order []*TensorInfo
	next  int
	cur   *io.LimitedReader
	err   error // sticky: after a failed read the position is unknown
}

// NewStream parses the header from r. size is the total length when known,
// or -1 for a stream of unknown length; with a known size, tensors that run
// past the end are refused before any data is read.
func NewStream(r io.Reader, size int64) (*Stream, error) {
	p, br := bufferedParser(r, size)
	f, err := p.header()
	if err != nil {
		return nil, err
	}
	return &Stream{File: f, r: br, pos: p.pos, order: f.InFileOrder()}, nil
}

// Next returns the next tensor in file order and a reader of exactly its
// bytes; whatever of the previous tensor's reader was left unread is skipped.
// It returns io.EOF after the last tensor. A truncated file shows up as a
// *FormatError from the tensor's reader or from Next.
func (s *Stream) Next() (*TensorInfo, io.Reader, error) {
	if s.err != nil {
		return nil, nil, s.err
	}
	if s.cur != nil && s.cur.N > 0 {
		if err := s.skip(s.cur.N); err != nil {
			return nil, nil, err
		}
		s.cur.N = 0
	}
	if s.next >= len(s.order) {
		return nil, nil, io.EOF
	}
	t := s.order[s.next]
	s.next++
	start := int64(s.File.DataOffset + t.Offset)
	if start < s.pos {
		// The header parser refuses overlaps, so this means a bug, not a
		// bad file; fail rather than hand out the wrong bytes.
		s.err = &FormatError{s.pos, fmt.Sprintf("tensor %q starts before the current position", t.Name)}
		return nil, nil, s.err
	}
	if err := s.skip(start - s.pos); err != nil {
		return nil, nil, err
	}
	s.cur = &io.LimitedReader{R: &countReader{s, t}, N: int64(t.Size)}
	return t, s.cur, nil
}

func (s *Stream) skip(n int64) error {
	k, err := io.CopyN(io.Discard, s.r, n)
	s.pos += k
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		s.err = &FormatError{s.pos, "file truncated in padding or skipped data"}
	default:
		s.err = &FormatError{s.pos, fmt.Sprintf("reading: %v", err)}
	}
	return s.err
}

// countReader tracks the stream position and turns a short read into an
// error that names the tensor.
type countReader struct {
	s *Stream
	t *TensorInfo
}

func (c *countReader) Read(b []byte) (int, error) {
	if c.s.err != nil {
		return 0, c.s.err
	}
	n, err := c.s.r.Read(b)
	c.s.pos += int64(n)
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		c.s.err = &FormatError{c.s.pos, fmt.Sprintf("file truncated inside tensor %q", c.t.Name)}
	default:
		c.s.err = &FormatError{c.s.pos, fmt.Sprintf("reading tensor %q: %v", c.t.Name, err)}
	}
	return n, c.s.err
}
