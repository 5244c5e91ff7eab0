package wgsl

import (
	"fmt"
	"regexp"
	"strings"
)

// Twin appends to an assembled kernel a copy of every module-scope
// function that reads the storage array from, directly or through another
// such function, reading array to instead and named with the suffix _to.
// WGSL cannot pass a storage binding to a function, so a kernel that runs
// the same block decoders over two weights (the gate and up products in
// one dispatch) calls the twins for the second. The kernel's entry point
// (main) is not copied; it calls whichever it needs.
func Twin(src, from, to string) (string, error) {
	all, err := decls(src)
	if err != nil {
		return "", err
	}
	var fns []decl
	for _, d := range all {
		if strings.HasPrefix(d.text, "fn ") && d.name != "main" {
			fns = append(fns, d)
		}
	}
	reads := regexp.MustCompile(`\b` + from + `\s*\[`)
	twinned := map[string]bool{}
	for grew := true; grew; {
		grew = false
		for _, f := range fns {
			if twinned[f.name] {
				continue
			}
			uses := reads.MatchString(f.text)
			for n := range twinned {
				uses = uses || regexp.MustCompile(`\b`+n+`\s*\(`).MatchString(f.text)
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
		body := reads.ReplaceAllString(f.text, to+"[")
		for n := range twinned {
			body = regexp.MustCompile(`\b`+n+`(\s*\()`).ReplaceAllString(body, n+"_"+to+"$1")
		}
		b.WriteString(body)
		b.WriteByte('\n')
	}
	return b.String(), nil
}
