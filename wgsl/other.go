package wgsl

import (
	"fmt"
	"regexp"
	"strings"
)

// declStart is a module-scope declaration's first line: its kind and name.
var declStart = regexp.MustCompile(`^(fn|const|struct|alias|override|var(?:<[^>]*>)?)\s+(\w+)`)

// decl is one module-scope declaration of an assembled source.
type decl struct{ name, text string }

// decls splits src into its module-scope declarations, in order; comments
// and blank lines between them are dropped.
func decls(src string) ([]decl, error) {
	var out []decl
	lines := strings.SplitAfter(src, "\n")
	for i := 0; i < len(lines); i++ {
		m := declStart.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		// A declaration ends where its braces and parentheses close: after
		// the body of a fn or struct, at the ';' of the others.
		block := m[1] == "fn" || m[1] == "struct"
		depth, opened, j := 0, false, i
		for ; j < len(lines); j++ {
			code, _, _ := strings.Cut(lines[j], "//")
			depth += strings.Count(code, "{") + strings.Count(code, "(") - strings.Count(code, "}") - strings.Count(code, ")")
			opened = opened || strings.Contains(code, "{")
			if depth == 0 && (block && opened || !block && strings.HasSuffix(strings.TrimSpace(code), ";")) {
				break
			}
		}
		if j == len(lines) {
			return nil, fmt.Errorf("wgsl: declaration of %s has no end", m[2])
		}
		out = append(out, decl{m[2], strings.Join(lines[i:j+1], "")})
		i = j
	}
	return out, nil
}

// ident matches identifier n where it names a module-scope declaration:
// not as a member (after a '.').
func ident(n string) *regexp.Regexp { return regexp.MustCompile(`(^|[^.\w])` + n + `\b`) }

// rename replaces identifier n (matched by re, ident(n)) in text by m,
// except where it declares a struct's field (before a ':').
func rename(text string, re *regexp.Regexp, n, m string) string {
	var b strings.Builder
	last := 0
	for _, at := range re.FindAllStringIndex(text, -1) {
		end := at[1]
		if strings.HasPrefix(strings.TrimLeft(text[end:], " \t"), ":") {
			continue
		}
		b.WriteString(text[last : end-len(n)])
		b.WriteString(m)
		last = end
	}
	b.WriteString(text[last:])
	return b.String()
}

// Other appends to an assembled kernel src the declarations of chain (the
// helpers assembled for another weight type, such as its dot and matvec
// functions) that the kernel needs to run them over array to instead of
// from: those reading from, those whose name the kernel already declares
// differently, and those using any of these, each named with the suffix
// _to and reading to. Declarations the kernel has word for word and that
// use none of them are shared, not copied (the kernel's accumulators, its
// workgroup size). A declaration NAME_to of the kernel's own overrides the
// chain's NAME, which is then renamed but not copied: a matvec reads its
// row length from the parameter word ROW_BYTES_WORD, and a kernel of two
// weight types gives the second its own word as ROW_BYTES_WORD_U.
//
// A kernel whose values' weights (to) differ in type from its queries' and
// keys' (from) runs both types' block decoders this way, which WGSL cannot
// do by parameter: functions cannot take a storage binding, and the two
// decoders share names (dot_part, xpart, PARTS).
func Other(src, chain, from, to string) (string, error) {
	mine, err := decls(src)
	if err != nil {
		return "", err
	}
	theirs, err := decls(chain)
	if err != nil {
		return "", err
	}
	have := map[string]string{}
	for _, d := range mine {
		have[d.name] = d.text
	}
	reads := regexp.MustCompile(`\b` + from + `\s*\[`)
	// renamed maps each declaration to be renamed to its identifier's
	// pattern.
	renamed := map[string]*regexp.Regexp{}
	for _, d := range theirs {
		text, ok := have[d.name]
		_, overridden := have[d.name+"_"+to]
		if reads.MatchString(d.text) || ok && text != d.text || overridden {
			renamed[d.name] = ident(d.name)
		}
	}
	if len(renamed) == 0 {
		return "", fmt.Errorf("wgsl: no declaration reads %s", from)
	}
	for grew := true; grew; {
		grew = false
		for _, d := range theirs {
			if renamed[d.name] != nil {
				continue
			}
			for _, re := range renamed {
				if re.MatchString(d.text) {
					renamed[d.name], grew = ident(d.name), true
					break
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString(src)
	for _, d := range theirs {
		if renamed[d.name] == nil {
			if _, ok := have[d.name]; !ok {
				b.WriteString(d.text)
				b.WriteByte('\n')
				have[d.name] = d.text
			}
			continue
		}
		if _, overridden := have[d.name+"_"+to]; overridden {
			continue
		}
		text := reads.ReplaceAllString(d.text, to+"[")
		for n, re := range renamed {
			text = rename(text, re, n, n+"_"+to)
		}
		b.WriteString(text)
		b.WriteByte('\n')
	}
	return b.String(), nil
}
