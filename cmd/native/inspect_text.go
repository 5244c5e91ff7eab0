package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// inspectText writes the report for people: sections of aligned columns.
func inspectText(w io.Writer, rep *inspectReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(cols ...string) { fmt.Fprintln(tw, strings.Join(cols, "\t")) }

	row("file", fmt.Sprintf("%s (%s)", rep.File, inspectHumanBytes(uint64(rep.Size))))
	row("format", fmt.Sprintf("GGUF v%d, alignment %d, tensor data at offset %d", rep.Version, rep.Alignment, rep.DataOffset))
	arch := rep.Architecture
	if arch == "" {
		arch = "(general.architecture is not set)"
	}
	row("architecture", arch)
	row("")

	row(fmt.Sprintf("metadata (%d keys)", len(rep.Metadata.kvs)))
	for _, kv := range rep.Metadata.kvs {
		row("  "+kv.Key, kv.Value.Type.String(), inspectValueText(kv.Value))
	}
	row("")

	if rep.Tensors != nil {
		row(fmt.Sprintf("tensors (%d)", len(rep.Tensors)))
		row("  name", "type", "shape", "bytes", "offset")
		for _, t := range rep.Tensors {
			dims := make([]string, len(t.Shape))
			for i, d := range t.Shape {
				dims[i] = strconv.FormatUint(d, 10)
			}
			row("  "+t.Name, t.Type, strings.Join(dims, " x "), strconv.FormatUint(t.Bytes, 10), strconv.FormatUint(t.Offset, 10))
		}
		row("")
	}

	tot := rep.Totals
	row("totals")
	row("  tensors", strconv.Itoa(tot.Tensors))
	row("  parameters", fmt.Sprintf("%s (%d)", tot.ParametersHuman, tot.Parameters))
	row("  data", fmt.Sprintf("%s (%d bytes)", inspectHumanBytes(tot.DataBytes), tot.DataBytes))
	for _, tt := range tot.ByType {
		row("  "+tt.Type, fmt.Sprintf("%s in %d tensors, %s parameters", inspectHumanBytes(tt.Bytes), tt.Tensors, inspectHumanCount(tt.Parameters)))
	}

	if tok := rep.Tokenizer; tok != nil {
		row("")
		row("tokenizer")
		row("  model", inspectOr(tok.Model, "(not set)"))
		row("  pre", inspectOr(tok.Pre, "(not set)"))
		row("  vocab size", strconv.Itoa(tok.VocabSize))
		row("  merges", strconv.Itoa(tok.Merges))
		for _, sp := range tok.Special {
			text := "(not in the vocabulary: none)"
			if sp.InVocab {
				text = inspectStringText(sp.Text, inspectStrElem)
			}
			row("  "+sp.Role, fmt.Sprintf("%d %s", sp.ID, text))
		}
		row("  add_bos", inspectBool(tok.AddBOS))
		row("  add_eos", inspectBool(tok.AddEOS))
		tmpl := "none"
		if tok.ChatTemplate {
			tmpl = fmt.Sprintf("present (%d bytes)", tok.ChatTemplateBytes)
		}
		if len(tok.OtherTemplates) > 0 {
			tmpl += ", named: " + strings.Join(tok.OtherTemplates, ", ")
		}
		row("  chat template", tmpl)
	}
	return tw.Flush()
}

func inspectOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func inspectBool(b *bool) string {
	if b == nil {
		return "(not set)"
	}
	return strconv.FormatBool(*b)
}
