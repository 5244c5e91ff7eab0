package registry

import "errors"

// The kinds of failure a caller may want to tell apart; test with errors.Is.
var (
	ErrNotFound     = errors.New("not found on the server")
	ErrSizeMismatch = errors.New("size mismatch")
	ErrChecksum     = errors.New("checksum mismatch")
	ErrDiskFull     = errors.New("disk full")
	ErrUnknownModel = errors.New("unknown model")
	ErrNotGGUF      = errors.New("not a GGUF file")
)

// kindError carries a full message and answers errors.Is for its kind, so
// messages read naturally instead of ending in the sentinel's text.
type kindError struct {
	kind error
	msg  string
}

func (e *kindError) Error() string        { return e.msg }
func (e *kindError) Is(target error) bool { return target == e.kind }

// transient marks a failure worth retrying: a cut connection, a 5xx, a
// stalled transfer. Anything else stops the download at once.
type transient struct{ err error }

func (t transient) Error() string { return t.err.Error() }
func (t transient) Unwrap() error { return t.err }

func isTransient(err error) bool {
	var t transient
	return errors.As(err, &t)
}
