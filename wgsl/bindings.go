package wgsl

import (
	"fmt"
	"regexp"
	"strconv"
)

// Binding is a storage buffer a kernel declares in group 0.
type Binding struct {
	Index    uint32
	Name     string
	Writable bool   // read_write, not read
	Type     string // the WGSL type, as written
}

var bindingDecl = regexp.MustCompile(`(?m)^@group\(0\)\s*@binding\((\d+)\)\s*var<storage,\s*(read|read_write)>\s*(\w+)\s*:\s*([^;]+);[ \t]*\n?`)

// Bindings lists the storage buffers an assembled kernel source declares.
func Bindings(src string) []Binding {
	var bs []Binding
	for _, m := range bindingDecl.FindAllStringSubmatch(src, -1) {
		i, _ := strconv.ParseUint(m[1], 10, 32)
		bs = append(bs, Binding{Index: uint32(i), Name: m[3], Writable: m[2] == "read_write", Type: m[4]})
	}
	return bs
}

// Merge rewrites an assembled kernel so that binding from is read through
// binding into: from's declaration goes, its accesses index into's array,
// and into becomes writable if from was. WebGPU rejects a dispatch that
// binds one buffer twice when either binding is writable, so a dispatch
// whose tensors share a buffer (an op in place, an absent optional input
// stood in for by another operand, two views of one activation) binds it
// once; the kernels address every operand by element offsets within its
// buffer, which makes one binding serve both.
func Merge(src string, from, into uint32) (string, error) {
	var f, t *Binding
	bs := Bindings(src)
	for i := range bs {
		switch bs[i].Index {
		case from:
			f = &bs[i]
		case into:
			t = &bs[i]
		}
	}
	if f == nil || t == nil || from == into {
		return "", fmt.Errorf("wgsl: merging binding %d into %d: the kernel does not declare both", from, into)
	}
	if f.Type != t.Type {
		return "", fmt.Errorf("wgsl: binding %d (%s: %s) cannot be read through binding %d (%s: %s)", from, f.Name, f.Type, into, t.Name, t.Type)
	}
	out := bindingDecl.ReplaceAllStringFunc(src, func(decl string) string {
		m := bindingDecl.FindStringSubmatch(decl)
		switch m[3] {
		case f.Name:
			return ""
		case t.Name:
			if f.Writable && !t.Writable {
				return regexp.MustCompile(`var<storage,\s*read>`).ReplaceAllString(decl, "var<storage, read_write>")
			}
		}
		return decl
	})
	// Buffers are only ever indexed; a use of the name left after renaming
	// the indexings would be something this rewrite does not understand.
	out = regexp.MustCompile(`\b`+f.Name+`(\s*\[)`).ReplaceAllString(out, t.Name+"$1")
	code := regexp.MustCompile(`//.*`).ReplaceAllString(out, "")
	if regexp.MustCompile(`\b` + f.Name + `\b`).MatchString(code) {
		return "", fmt.Errorf("wgsl: binding %d (%s) is used other than by indexing; it cannot be merged", from, f.Name)
	}
	return out, nil
}
