package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// loadProgress returns the progress callback of a model's load: on a
// terminal, one rewritten line of the weight bytes loaded (a large model
// takes seconds to read and upload), cleared when done by the returned
// finish; elsewhere nothing, so logs and piped output stay as they were.
func loadProgress() (progress func(done, total int64), finish func()) {
	st, err := os.Stderr.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return nil, func() {}
	}
	return loadLine(os.Stderr, time.Now)
}

// loadLine writes the load's progress line to out, at most every 100 ms.
func loadLine(out io.Writer, now func() time.Time) (progress func(done, total int64), finish func()) {
	var last time.Time
	shown := false
	progress = func(done, total int64) {
		t := now()
		if t.Sub(last) < 100*time.Millisecond && done < total {
			return
		}
		last, shown = t, true
		pct := 0.0
		if total > 0 {
			pct = 100 * float64(done) / float64(total)
		}
		fmt.Fprintf(out, "\r\033[Kloading weights: %s / %s (%.0f%%)", mib(done), mib(total), pct)
	}
	finish = func() {
		if shown {
			fmt.Fprint(out, "\r\033[K")
		}
	}
	return progress, finish
}
