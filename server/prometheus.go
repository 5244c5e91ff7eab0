package server

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Prometheus' text exposition format, as much of it as /metrics needs:
// gauges, counters and histograms, each family with its HELP and TYPE
// lines, label values escaped.

// histogram counts observations into buckets of fixed upper bounds (the
// last, +Inf, implied), with their sum.
type histogram struct {
	mu     sync.Mutex
	bounds []float64
	counts []uint64 // per bucket, not cumulative; one more than bounds
	sum    float64
}

func newHistogram(bounds ...float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]uint64, len(bounds)+1)}
}

// observe adds one value.
func (h *histogram) observe(v float64) {
	if math.IsNaN(v) {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	i := 0
	for i < len(h.bounds) && v > h.bounds[i] {
		i++
	}
	h.counts[i]++
	h.sum += v
}

// promWriter writes metric families.
type promWriter struct {
	b strings.Builder
}

// family writes a family's HELP and TYPE lines.
func (p *promWriter) family(name, typ, help string) {
	fmt.Fprintf(&p.b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
}

// sample writes one sample line; labels are name, value pairs.
func (p *promWriter) sample(name string, v float64, labels ...string) {
	p.b.WriteString(name)
	if len(labels) > 0 {
		p.b.WriteByte('{')
		for i := 0; i+1 < len(labels); i += 2 {
			if i > 0 {
				p.b.WriteByte(',')
			}
			fmt.Fprintf(&p.b, "%s=\"%s\"", labels[i], escapeLabel(labels[i+1]))
		}
		p.b.WriteByte('}')
	}
	p.b.WriteByte(' ')
	p.b.WriteString(formatValue(v))
	p.b.WriteByte('\n')
}

// gauge writes a family of one gauge sample.
func (p *promWriter) gauge(name, help string, v float64, labels ...string) {
	p.family(name, "gauge", help)
	p.sample(name, v, labels...)
}

// counter writes a family of one counter sample.
func (p *promWriter) counter(name, help string, v float64, labels ...string) {
	p.family(name, "counter", help)
	p.sample(name, v, labels...)
}

// histogram writes h as a family: cumulative buckets, sum and count.
func (p *promWriter) histogram(name, help string, h *histogram, labels ...string) {
	h.mu.Lock()
	counts := append([]uint64(nil), h.counts...)
	sum := h.sum
	h.mu.Unlock()
	p.family(name, "histogram", help)
	var total uint64
	for i, c := range counts {
		total += c
		le := "+Inf"
		if i < len(h.bounds) {
			le = formatValue(h.bounds[i])
		}
		p.sample(name+"_bucket", float64(total), append(labels[:len(labels):len(labels)], "le", le)...)
	}
	p.sample(name+"_sum", sum, labels...)
	p.sample(name+"_count", float64(total), labels...)
}

// formatValue writes a sample value as Prometheus reads it.
func formatValue(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// escapeLabel escapes a label value: backslash, double quote and newline.
func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
