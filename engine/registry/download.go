package registry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/emberllm/ember/engine/gguf"
)

// Options tune Resolve and Fetch. The zero value is what the CLI wants,
// minus the log.
type Options struct {
	// Log receives the progress bar (a terminal) or progress lines
	// (anything else) and notes about resumes and retries; nil is silent.
	Log io.Writer
	// Client makes the requests; nil uses one with connect, header and
	// idle timeouts but no overall limit (a model takes as long as it takes).
	Client *http.Client
	// Retries is how many attempts in a row may fail without gaining a
	// byte before the download gives up (0: 5; negative: none). An attempt
	// that gains bytes resets the count, so a flaky link still finishes.
	Retries int
	// RetryWait is the pause before the first retry, doubled up to 30s
	// after each failure that gained nothing (0: one second).
	RetryWait time.Duration
	// Stall cuts a transfer that received nothing for this long, so it is
	// retried instead of hanging (0: one minute).
	Stall time.Duration
}

var defaultClient = &http.Client{Transport: &http.Transport{
	Proxy:                 http.ProxyFromEnvironment,
	DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
	TLSHandshakeTimeout:   30 * time.Second,
	ResponseHeaderTimeout: 60 * time.Second,
}}

// Fetch downloads a model into the cache and returns its path. A complete
// file already there is returned at once. Another process downloading the
// same file is waited for, and its result used. An unfinished download left
// by an earlier run is resumed.
func Fetch(ctx context.Context, m Model, o Options) (string, error) {
	final, err := Path(m.URL)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return "", fmt.Errorf("creating the model cache: %w", err)
	}
	p := newProgress(o.Log, m.label())
	lk, err := tryLock(final + lockSuffix)
	if err == nil && lk == nil {
		p.note("%s: another ember is downloading it; waiting (lock %s)", m.label(), final+lockSuffix)
		lk, err = waitLock(final + lockSuffix)
	}
	if err != nil {
		return "", fmt.Errorf("locking %s: %w", final+lockSuffix, err)
	}
	defer lk.unlock()
	// The process we waited for may have finished the file.
	if path, _, err := Cached(m); err != nil || path != "" {
		return path, err
	}
	d := &download{m: m, o: o, final: final, part: final + partSuffix, p: p, total: -1}
	if m.SHA256 != "" {
		d.hash = newHasher()
	}
	if err := d.run(ctx); err != nil {
		return "", err
	}
	return final, nil
}

// download is the state of one Fetch across its attempts.
type download struct {
	m           Model
	o           Options
	final, part string
	p           *progress
	total       int64 // the file's full size as the server states it; -1: unknown
	hash        *hasher
	reached     bool // the server answered once: later connect errors are cuts, not "offline"
}

func (d *download) run(ctx context.Context) error {
	retries := d.o.Retries
	if retries == 0 {
		retries = 5
	}
	wait := d.o.RetryWait
	if wait <= 0 {
		wait = time.Second
	}
	failures := 0
	for {
		before := fileSize(d.part)
		err := d.attempt(ctx)
		if err == nil {
			return d.finish()
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: download interrupted at %s; run again to resume: %w", d.m.label(), FormatBytes(fileSize(d.part)), ctx.Err())
		}
		if !isTransient(err) {
			return err
		}
		after := fileSize(d.part)
		if after > before {
			failures = 0
		} else {
			failures++
		}
		if retries < 0 {
			return fmt.Errorf("%s: %w; run again to resume from %s", d.m.label(), err, FormatBytes(after))
		}
		if failures > retries {
			return fmt.Errorf("%s: %w (gave up after %d attempts in a row without progress; run again to resume from %s)",
				d.m.label(), err, failures, FormatBytes(after))
		}
		pause := min(wait<<min(max(failures-1, 0), 5), 30*time.Second)
		d.p.note("%s: %v; retrying in %s", d.m.label(), err, fmtDuration(pause))
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
	}
}

// attempt makes one request and appends what it receives to the partial
// file. It returns nil once the partial file holds the whole response.
func (d *download) attempt(ctx context.Context) error {
	have := fileSize(d.part)
	// The stall watchdog cancels this context when no byte came for a while.
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(actx, http.MethodGet, d.m.URL, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", d.m.label(), err)
	}
	req.Header.Set("User-Agent", "ember")
	// Compressed transfer would hide the file's length and break ranges.
	req.Header.Set("Accept-Encoding", "identity")
	validator := readSmall(d.final + etagSuffix)
	if have > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", have))
		if validator != "" {
			// A file changed on the server since the partial download
			// comes back whole (200) instead of as a spliced-on tail.
			req.Header.Set("If-Range", validator)
		}
	}
	client := d.o.Client
	if client == nil {
		client = defaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if d.reached && ctx.Err() == nil {
			return transient{fmt.Errorf("request failed: %w", err)}
		}
		return fmt.Errorf("%s: cannot download %s (offline?): %w\n  (a copy of the file placed at %s is used without network)", d.m.label(), d.m.URL, err, d.final)
	}
	defer resp.Body.Close()
	d.reached = true

	switch code := resp.StatusCode; {
	case code == http.StatusPartialContent && have > 0:
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != have {
			d.restart("the server answered the resume with the wrong range (%q)", resp.Header.Get("Content-Range"))
			return transient{errors.New("bad Content-Range")}
		}
		if resp.ContentLength >= 0 && total >= 0 && resp.ContentLength != total-have {
			return d.mismatch(fmt.Sprintf("the server sent Content-Length %d for the range %d- of a %d-byte file", resp.ContentLength, have, total))
		}
		d.total = total
	case code == http.StatusOK:
		if have > 0 {
			why := "the server does not support resuming (it ignored the Range request)"
			if validator != "" && resp.Header.Get("Accept-Ranges") == "bytes" {
				why = "the file changed on the server since the partial download"
			}
			d.restart("%s", why)
			have = 0
		}
		d.total = resp.ContentLength
		writeSmall(d.final+etagSuffix, validatorOf(resp))
	case code == http.StatusRequestedRangeNotSatisfiable && have > 0:
		// The range starts at or past the end: the partial file may be
		// complete already (cut just before the rename), else it is junk.
		if _, total, ok := parseContentRange(resp.Header.Get("Content-Range")); ok && total == have {
			d.total = total
			return nil
		}
		d.restart("the partial download is longer than the file on the server")
		return transient{errors.New("range not satisfiable")}
	case code == http.StatusNotFound:
		return &kindError{ErrNotFound, fmt.Sprintf("%s: not found on the server (HTTP 404): %s", d.m.label(), d.m.URL)}
	case code >= 500 || code == http.StatusTooManyRequests || code == http.StatusRequestTimeout:
		return transient{fmt.Errorf("HTTP %s", resp.Status)}
	default:
		return fmt.Errorf("%s: HTTP %s from %s", d.m.label(), resp.Status, d.m.URL)
	}

	if d.m.Size > 0 && d.total >= 0 && d.total != d.m.Size {
		return d.mismatch(fmt.Sprintf("the server's file has %d bytes (Content-Length), the registry expects %d", d.total, d.m.Size))
	}
	if need := d.total - have; d.total > 0 {
		if free := freeSpace(filepath.Dir(d.part)); free >= 0 && free < need {
			return &kindError{ErrDiskFull, fmt.Sprintf("%s: not enough disk space: %s more needed, %s free in %s",
				d.m.label(), FormatBytes(need), FormatBytes(free), filepath.Dir(d.part))}
		}
	}
	// The partial file is created only now, so a 404 or a refused
	// download leaves nothing behind.
	f, err := os.OpenFile(d.part, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return d.writeErr(err)
	}
	defer f.Close()
	if fileSize(d.part) != have {
		if err := f.Truncate(have); err != nil {
			return d.writeErr(err)
		}
	}
	if _, err := f.Seek(have, io.SeekStart); err != nil {
		return d.writeErr(err)
	}
	if have > 0 {
		d.p.note("%s: resuming at %s of %s", d.m.label(), FormatBytes(have), FormatBytes(d.total))
	}
	if d.hash != nil {
		if err := d.hash.catchUp(d.part, have); err != nil {
			return err
		}
	}
	got, err := d.copy(actx, cancel, f, resp.Body, have)
	if err != nil {
		if errors.Is(err, ErrNotGGUF) {
			f.Close()
			os.Remove(d.part)
			os.Remove(d.final + etagSuffix)
		}
		return err
	}
	if err := f.Sync(); err != nil {
		return d.writeErr(err)
	}
	if d.total >= 0 && got < d.total {
		// Only a body without a Content-Length ends cleanly short.
		return transient{fmt.Errorf("connection closed after %s of %s", FormatBytes(got), FormatBytes(d.total))}
	}
	return nil
}

// copy appends body to f, feeding the hash and the progress display, and
// returns the partial file's new size.
func (d *download) copy(ctx context.Context, cancel context.CancelCauseFunc, f *os.File, body io.Reader, have int64) (int64, error) {
	stall := d.o.Stall
	if stall <= 0 {
		stall = time.Minute
	}
	watchdog := time.AfterFunc(stall, func() { cancel(errStalled) })
	defer watchdog.Stop()
	d.p.begin(have)
	buf := make([]byte, 1<<20)
	var head []byte // the file's first bytes, while fewer than the magic
	checking := have == 0
	for {
		n, rerr := body.Read(buf)
		if n > 0 && checking {
			head = append(head, buf[:min(n, len(gguf.Magic)-len(head))]...)
			if len(head) == len(gguf.Magic) {
				checking = false
				if err := d.checkMagic(head); err != nil {
					return have, err
				}
			}
		}
		if n > 0 {
			watchdog.Reset(stall)
			if _, err := f.Write(buf[:n]); err != nil {
				return have, d.writeErr(err)
			}
			if d.hash != nil {
				d.hash.Write(buf[:n])
			}
			have += int64(n)
			d.p.update(have, d.total)
		}
		if rerr == io.EOF {
			return have, nil
		}
		if rerr != nil {
			if context.Cause(ctx) == errStalled {
				return have, transient{fmt.Errorf("no data for %s at %s", stall, FormatBytes(have))}
			}
			return have, transient{fmt.Errorf("connection cut at %s: %w", FormatBytes(have), rerr)}
		}
	}
}

var errStalled = errors.New("transfer stalled")

// checkMagic stops a download that is not a GGUF file: a server that
// answers with an HTML page (a login wall, an error) or a link to
// something else. Nothing is kept.
func (d *download) checkMagic(head []byte) error {
	if string(head) == gguf.Magic {
		return nil
	}
	what := fmt.Sprintf("%q", head)
	if h := strings.ToLower(string(head)); strings.HasPrefix(h, "<") || strings.HasPrefix(h, "\n<") {
		what += ", which looks like an HTML page"
	}
	return &kindError{ErrNotGGUF, fmt.Sprintf("%s: %s is not a GGUF file (it starts with %s, not %q); nothing was kept", d.m.label(), d.m.URL, what, gguf.Magic)}
}

// finish verifies the complete partial file and moves it into place.
func (d *download) finish() error {
	size := fileSize(d.part)
	if err := d.checkMagic(readHead(d.part, len(gguf.Magic))); err != nil {
		os.Remove(d.part)
		os.Remove(d.final + etagSuffix)
		return err
	}
	want := d.m.Size
	if want <= 0 {
		want = d.total
	}
	if want >= 0 && size != want {
		os.Remove(d.part)
		return &kindError{ErrSizeMismatch, fmt.Sprintf("%s: downloaded %d bytes, expected %d; the download was discarded", d.m.label(), size, want)}
	}
	if d.hash != nil {
		if err := d.hash.catchUp(d.part, size); err != nil {
			return err
		}
		if got := d.hash.sum(); got != strings.ToLower(d.m.SHA256) {
			os.Remove(d.part)
			os.Remove(d.final + etagSuffix)
			return &kindError{ErrChecksum, fmt.Sprintf("%s: SHA-256 is %s, expected %s; the download was discarded", d.m.label(), got, d.m.SHA256)}
		}
	}
	if err := os.Rename(d.part, d.final); err != nil {
		return err
	}
	os.Remove(d.final + etagSuffix)
	writeSmall(strings.TrimSuffix(d.final, ".gguf")+urlSuffix, d.m.URL)
	d.p.done(size)
	return nil
}

// restart says why the partial download is dropped; the caller then
// writes from zero (truncating the file) or retries without a range.
func (d *download) restart(format string, args ...any) {
	d.p.note("%s: %s; restarting from zero", d.m.label(), fmt.Sprintf(format, args...))
	os.Remove(d.final + etagSuffix)
	if fileSize(d.part) > 0 {
		os.Truncate(d.part, 0)
	}
}

// mismatch ends a download whose server disagrees about the file's size:
// nothing already downloaded can be trusted.
func (d *download) mismatch(msg string) error {
	os.Remove(d.part)
	os.Remove(d.final + etagSuffix)
	return &kindError{ErrSizeMismatch, fmt.Sprintf("%s: %s; nothing was kept", d.m.label(), msg)}
}

// writeErr names a full disk plainly; the partial file stays for a resume.
func (d *download) writeErr(err error) error {
	if errors.Is(err, syscall.ENOSPC) {
		return &kindError{ErrDiskFull, fmt.Sprintf("%s: disk full writing %s (%s kept): free some space and run again to resume",
			d.m.label(), d.part, FormatBytes(fileSize(d.part)))}
	}
	return fmt.Errorf("%s: writing %s: %w", d.m.label(), d.part, err)
}

// parseContentRange reads "bytes START-END/TOTAL" or "bytes */TOTAL";
// total is -1 for "*".
func parseContentRange(s string) (start, total int64, ok bool) {
	rest, found := strings.CutPrefix(s, "bytes ")
	if !found {
		return 0, 0, false
	}
	rng, tot, found := strings.Cut(rest, "/")
	if !found {
		return 0, 0, false
	}
	total = -1
	if tot != "*" {
		t, err := strconv.ParseInt(tot, 10, 64)
		if err != nil {
			return 0, 0, false
		}
		total = t
	}
	if rng == "*" {
		return -1, total, true
	}
	a, _, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, false
	}
	start, err := strconv.ParseInt(a, 10, 64)
	return start, total, err == nil
}

// validatorOf is what If-Range can carry for a response: a strong ETag,
// else Last-Modified (weak ETags are not allowed there).
func validatorOf(resp *http.Response) string {
	if et := resp.Header.Get("ETag"); et != "" && !strings.HasPrefix(et, "W/") {
		return et
	}
	return resp.Header.Get("Last-Modified")
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// readHead is the first n bytes of a file (fewer when it is shorter).
func readHead(path string, n int) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, n)
	k, _ := io.ReadFull(f, b)
	return b[:k]
}

func readSmall(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func writeSmall(path, s string) {
	if s == "" {
		os.Remove(path)
		return
	}
	os.WriteFile(path, []byte(s+"\n"), 0o644)
}
