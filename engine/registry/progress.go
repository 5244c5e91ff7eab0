package registry

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress reports a download on a writer: a bar redrawn in place on a
// terminal, plain lines otherwise (logs and pipes get no carriage returns).
// Either way it writes a few times a second at most.
type progress struct {
	w     io.Writer
	tty   bool
	label string
	every time.Duration

	start     time.Time
	startDone int64 // bytes already there when this run began (a resume)
	last      time.Time
	drawn     bool
	// a short window of samples for the rate, so the ETA follows the
	// current speed rather than the average since the start
	samples []sample
}

type sample struct {
	t time.Time
	n int64
}

func newProgress(w io.Writer, label string) *progress {
	if w == nil {
		w = io.Discard
	}
	p := &progress{w: w, label: label, every: time.Second}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty, p.every = true, 200*time.Millisecond
		}
	}
	return p
}

// begin starts (or restarts, after a cut) the clock at done bytes.
func (p *progress) begin(done int64) {
	now := time.Now()
	if p.start.IsZero() {
		p.start, p.startDone = now, done
	}
	p.samples = []sample{{now, done}}
	p.last = now // the first report waits a full interval: an early rate means nothing
}

// update is called after every write; it draws only when enough time passed.
func (p *progress) update(done, total int64) {
	now := time.Now()
	if now.Sub(p.last) < p.every {
		return
	}
	p.last = now
	p.samples = append(p.samples, sample{now, done})
	for len(p.samples) > 2 && now.Sub(p.samples[0].t) > 10*time.Second {
		p.samples = p.samples[1:]
	}
	rate := 0.0
	if s := p.samples[0]; now.Sub(s.t) > 0 {
		rate = float64(done-s.n) / now.Sub(s.t).Seconds()
	}
	eta := "?"
	if total > 0 && rate > 0 {
		eta = fmtDuration(time.Duration(float64(total-done) / rate * float64(time.Second)))
	}
	if !p.tty {
		pct := ""
		if total > 0 {
			pct = fmt.Sprintf(" (%.0f%%)", 100*float64(done)/float64(total))
		}
		fmt.Fprintf(p.w, "%s: %s / %s%s, %s/s, ETA %s\n", p.label, FormatBytes(done), FormatBytes(total), pct, FormatBytes(int64(rate)), eta)
		return
	}
	const width = 30
	bar := strings.Repeat(" ", width)
	pct := "   ?"
	if total > 0 {
		fill := int(width * done / total)
		bar = strings.Repeat("=", fill) + strings.Repeat(" ", width-fill)
		if fill < width {
			bar = bar[:fill] + ">" + bar[fill+1:]
		}
		pct = fmt.Sprintf("%3.0f%%", 100*float64(done)/float64(total))
	}
	fmt.Fprintf(p.w, "\r\033[K%s [%s] %s %s / %s  %s/s  ETA %s", p.label, bar, pct, FormatBytes(done), FormatBytes(total), FormatBytes(int64(rate)), eta)
	p.drawn = true
}

// note prints a message (a resume, a retry) without breaking the bar.
func (p *progress) note(format string, args ...any) {
	p.clear()
	fmt.Fprintf(p.w, format+"\n", args...)
}

func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
		p.drawn = false
	}
}

// done prints the summary line of a finished download.
func (p *progress) done(total int64) {
	p.clear()
	d := time.Since(p.start)
	rate := float64(total-p.startDone) / max(d.Seconds(), 1e-3)
	fmt.Fprintf(p.w, "%s: %s in %s (%s/s)\n", p.label, FormatBytes(total), fmtDuration(d), FormatBytes(int64(rate)))
}

// FormatBytes writes a size in binary units: 512 B, 1.1 MiB, 4.58 GiB.
func FormatBytes(n int64) string {
	switch {
	case n < 0:
		return "?"
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return d.Round(time.Second).String()
	}
	return d.Round(time.Minute).String()
}
