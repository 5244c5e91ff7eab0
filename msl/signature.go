package msl

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Param is one parameter of a kernel's entry point.
type Param struct {
	Name string
	// Type is the declared type, address space and const included
	// ("device const uchar*", "constant Params&", "uint3").
	Type string
	// Attr is the attribute inside [[ ]]: "buffer(2)", "threadgroup(0)",
	// or a built-in such as "thread_index_in_threadgroup".
	Attr string
}

// Index is the argument index of a buffer or threadgroup parameter: kind
// "buffer" or "threadgroup".
func (p Param) Index(kind string) (int, bool) {
	s, ok := strings.CutPrefix(p.Attr, kind+"(")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(strings.TrimSuffix(s, ")"))
	return i, err == nil
}

// Builtins are the attributes of the built-in inputs a kernel may take.
var Builtins = []string{
	"threadgroup_position_in_grid", "thread_position_in_threadgroup", "thread_index_in_threadgroup",
	"threads_per_threadgroup", "thread_position_in_grid", "threadgroups_per_grid",
	"simdgroup_index_in_threadgroup", "thread_index_in_simdgroup", "threads_per_simdgroup",
}

var (
	entry   = regexp.MustCompile(`\bkernel\s+void\s+(\w+)\s*\(`)
	comment = regexp.MustCompile(`//[^\n]*|(?s:/\*.*?\*/)`)
)

// Signature returns the parameters of the entry point of an assembled
// kernel, which must be the source's one kernel and be called name.
func Signature(src, name string) ([]Param, error) {
	src = comment.ReplaceAllString(src, "")
	ms := entry.FindAllStringSubmatchIndex(src, -1)
	if len(ms) != 1 {
		return nil, fmt.Errorf("msl: %s has %d kernel entry points, want 1", name, len(ms))
	}
	m := ms[0]
	if got := src[m[2]:m[3]]; got != name {
		return nil, fmt.Errorf("msl: the entry point of %s.metal is %s", name, got)
	}
	// The list runs to the parenthesis closing the one at m[1]-1.
	depth, end := 1, -1
	for i := m[1]; i < len(src) && end < 0; i++ {
		switch src[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				end = i
			}
		}
	}
	if end < 0 {
		return nil, fmt.Errorf("msl: %s: unclosed parameter list", name)
	}
	var ps []Param
	for _, raw := range splitTop(src[m[1]:end]) {
		p, err := param(raw)
		if err != nil {
			return nil, fmt.Errorf("msl: %s: %w", name, err)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

// splitTop splits a parameter list at its commas outside parentheses and
// brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

var paramDecl = regexp.MustCompile(`^(.*?)(\w+)\s*\[\[\s*([\w() ]+?)\s*\]\]$`)

// param parses "TYPE NAME [[ATTR]]".
func param(raw string) (Param, error) {
	s := strings.Join(strings.Fields(raw), " ")
	m := paramDecl.FindStringSubmatch(s)
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return Param{}, fmt.Errorf("parameter %q is not TYPE NAME [[ATTRIBUTE]]", s)
	}
	p := Param{Type: strings.TrimSpace(m[1]), Name: m[2], Attr: strings.ReplaceAll(m[3], " ", "")}
	if _, ok := p.Index("buffer"); ok {
		return p, nil
	}
	if _, ok := p.Index("threadgroup"); ok {
		return p, nil
	}
	for _, b := range Builtins {
		if p.Attr == b {
			return p, nil
		}
	}
	return Param{}, fmt.Errorf("parameter %s has attribute [[%s]], which the kernels do not use", p.Name, p.Attr)
}
