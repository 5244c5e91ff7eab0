package wgsl

import (
	"fmt"
	"regexp"
	"strings"
)

var fnDecl = regexp.MustCompile(`^fn\s+(\w+)\s*\(`)

// Twin appends to an assembled kernel a copy of every module-scope
// function that reads the storage array from, directly or through another
// such function, reading array to instead and named with the suffix _to.
// WGSL cannot pass a storage binding to a function, so a kernel that runs
// the same block decoders over two weights (the gate and up products in
// one dispatch) calls the twins for the second. The kernel's entry point
// (main) is not copied; it calls whichever it needs.
func Twin(src, from, to string) (string, error) {
	type fn struct{ name, body string }
	var fns []fn
	lines := strings.SplitAfter(src, "\n")
	for i := 0; i < len(lines); i++ {
		m := fnDecl.FindStringSubmatch(lines[i])
		if m == nil || m[1] == "main" {
			continue
		}
		depth, opened, j := 0, false, i
		for ; j < len(lines); j++ {
			code, _, _ := strings.Cut(lines[j], "//")
			depth += strings.Count(code, "{") - strings.Count(code, "}")
			opened = opened || strings.Contains(code, "{")
			if opened && depth == 0 {
				break
			}
		}
		if j == len(lines) {
			return "", fmt.Errorf("wgsl: function %s has no end", m[1])
		}
		fns = append(fns, fn{m[1], strings.Join(lines[i:j+1], "")})
		i = j
	}
	reads := regexp.MustCompile(`\b` + from + `\s*\[`)
	twinned := map[string]bool{}
	for grew := true; grew; {
		grew = false
		for _, f := range fns {
			if twinned[f.name] {
				continue
			}
			uses := reads.MatchString(f.body)
			for n := range twinned {
				uses = uses || regexp.MustCompile(`\b`+n+`\s*\(`).MatchString(f.body)
			}
			if uses {
				twinned[f.name], grew = true, true
			}
		}
	}
	if len(twinned) == 0 {
		return "", fmt.Errorf("wgsl: no function reads %s", from)
	}
	var b strings.Builder
	b.WriteString(src)
	for _, f := range fns {
		if !twinned[f.name] {
			continue
		}
		body := reads.ReplaceAllString(f.body, to+"[")
		for n := range twinned {
			body = regexp.MustCompile(`\b`+n+`(\s*\()`).ReplaceAllString(body, n+"_"+to+"$1")
		}
		b.WriteString(body)
		b.WriteByte('\n')
	}
	return b.String(), nil
}
