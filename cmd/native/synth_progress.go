package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// progressPrinter shows how far a long write has got on stderr: one
// rewritten line on a terminal, a plain line per tensor otherwise (so logs
// stay readable).
type progressPrinter struct {
	out      io.Writer
	tty      bool
	start    time.Time
	last     time.Time
	lastTens int
}

func newProgress() *progressPrinter {
	tty := false
	if st, err := os.Stderr.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
		tty = true
	}
	return &progressPrinter{out: os.Stderr, tty: tty, start: time.Now(), lastTens: -1}
}

func (p *progressPrinter) update(i, n int, name string, done, total int64) {
	now := time.Now()
	rate := float64(done) / now.Sub(p.start).Seconds() / (1 << 20)
	if p.tty {
		if now.Sub(p.last) < 100*time.Millisecond && done < total {
			return
		}
		p.last = now
		fmt.Fprintf(p.out, "\r\033[K[%d/%d] %-32s %s / %s  %.0f MiB/s", i+1, n, name, mib(done), mib(total), rate)
		return
	}
	// plain lines: one per tensor, at most one a second
	if i != p.lastTens && (now.Sub(p.last) >= time.Second || i == n-1) {
		p.lastTens, p.last = i, now
		fmt.Fprintf(p.out, "[%d/%d] %s (%s / %s, %.0f MiB/s)\n", i+1, n, name, mib(done), mib(total), rate)
	}
}

func (p *progressPrinter) finish(total int64) {
	if p.tty {
		fmt.Fprint(p.out, "\r\033[K")
	}
	d := time.Since(p.start)
	fmt.Fprintf(p.out, "wrote %s in %.1fs (%.0f MiB/s)\n", mib(total), d.Seconds(), float64(total)/d.Seconds()/(1<<20))
}

func mib(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}
