package main

import (
	"strings"
	"testing"
	"time"
)

// The load's progress line is rewritten at most every 100 ms, always shows
// the end, and is cleared by finish; a load too quick to show any leaves
// nothing behind.
func TestLoadLine(t *testing.T) {
	var out strings.Builder
	clock := time.Unix(0, 0)
	progress, finish := loadLine(&out, func() time.Time { return clock })
	progress(1<<20, 4<<20)
	clock = clock.Add(50 * time.Millisecond)
	progress(2<<20, 4<<20) // too soon: not shown
	clock = clock.Add(60 * time.Millisecond)
	progress(3<<20, 4<<20)
	progress(4<<20, 4<<20) // the end: shown at once
	finish()
	want := "\r\033[Kloading weights: 1.0 MiB / 4.0 MiB (25%)" +
		"\r\033[Kloading weights: 3.0 MiB / 4.0 MiB (75%)" +
		"\r\033[Kloading weights: 4.0 MiB / 4.0 MiB (100%)" +
		"\r\033[K"
	if out.String() != want {
		t.Errorf("progress output %q, want %q", out.String(), want)
	}

	out.Reset()
	_, finish = loadLine(&out, time.Now)
	finish()
	if out.Len() != 0 {
		t.Errorf("a load without progress wrote %q", out.String())
	}
}
