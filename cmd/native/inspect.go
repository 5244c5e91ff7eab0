package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
)

func init() {
	register("inspect", "show a GGUF file's metadata, tensors and tokenizer", runInspect)
}

func runInspect(args []string) error { return inspectCmd(os.Stdout, args) }

// inspectCmd is the command with its output writer, for tests.
func inspectCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	listTensors := fs.Bool("tensors", true, "list every tensor (-tensors=false for the summary only)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: ember inspect FILE|NAME|URL [--json] [-tensors=false]\n\nShows a GGUF file's format, metadata, tensors, totals and tokenizer.")
		fs.PrintDefaults()
	}
	// Flags may come before or after the file name.
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 1 {
		fs.Usage()
		return fmt.Errorf("want one GGUF file, got %d arguments", len(files))
	}
	path, err := resolveModel(files[0])
	if err != nil {
		return err
	}
	rep, err := inspectFile(path)
	if err != nil {
		return err
	}
	if !*listTensors {
		rep.Tensors = nil
	}
	if *asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	return inspectText(w, rep)
}

// inspectReport is everything the command shows, in both output forms.
type inspectReport struct {
	File         string            `json:"file"`
	Size         int64             `json:"size"`
	Version      uint32            `json:"version"`
	Architecture string            `json:"architecture"`
	Alignment    uint64            `json:"alignment"`
	DataOffset   uint64            `json:"data_offset"`
	Metadata     inspectMetadata   `json:"metadata"`
	Tensors      []inspectTensor   `json:"tensors,omitempty"`
	Totals       inspectTotals     `json:"totals"`
	Tokenizer    *inspectTokenizer `json:"tokenizer,omitempty"`
}

type inspectTensor struct {
	Name   string   `json:"name"`
	Type   string   `json:"type"`
	Shape  []uint64 `json:"shape"` // ggml order: the row length first
	Bytes  uint64   `json:"bytes"`
	Offset uint64   `json:"offset"` // from the start of the data section
}

type inspectTotals struct {
	Tensors         int                `json:"tensors"`
	Parameters      uint64             `json:"parameters"`
	ParametersHuman string             `json:"parameters_human"`
	DataBytes       uint64             `json:"data_bytes"`
	ByType          []inspectTypeTotal `json:"by_type"`
}

type inspectTypeTotal struct {
	Type       string `json:"type"`
	Tensors    int    `json:"tensors"`
	Parameters uint64 `json:"parameters"`
	Bytes      uint64 `json:"bytes"`
}

type inspectTokenizer struct {
	Model             string           `json:"model,omitempty"`
	Pre               string           `json:"pre,omitempty"`
	VocabSize         int              `json:"vocab_size"`
	Merges            int              `json:"merges"`
	Special           []inspectSpecial `json:"special,omitempty"`
	AddBOS            *bool            `json:"add_bos,omitempty"`
	AddEOS            *bool            `json:"add_eos,omitempty"`
	ChatTemplate      bool             `json:"chat_template"`
	ChatTemplateBytes int              `json:"chat_template_bytes,omitempty"`
	OtherTemplates    []string         `json:"other_templates,omitempty"`
}

// inspectSpecial is one special token: its role, id and text.
type inspectSpecial struct {
	Role string `json:"role"`
	ID   int64  `json:"id"`
	Text string `json:"text"`
	// InVocab is false for ids outside the vocabulary, such as -1 or
	// 4294967295, which converters write for "no such token".
	InVocab bool `json:"in_vocab"`
}

func inspectFile(path string) (*inspectReport, error) {
	r, err := gguf.Open(path)
	if err != nil {
		var fe *gguf.FormatError
		if errors.As(err, &fe) && fe.Offset == 0 && strings.Contains(fe.Msg, "not a GGUF file") {
			return nil, fmt.Errorf("%s is not a GGUF file (it does not start with %q)", path, gguf.Magic)
		}
		if errors.As(err, &fe) && strings.Contains(fe.Msg, "inside the magic") {
			return nil, fmt.Errorf("%s is not a GGUF file (it is shorter than the 4-byte magic)", path)
		}
		return nil, err
	}
	defer r.Close()
	rep := &inspectReport{
		File:         path,
		Size:         r.Size(),
		Version:      r.Version,
		Architecture: r.Architecture(),
		Alignment:    r.Alignment,
		DataOffset:   r.DataOffset,
		Metadata:     inspectMetadata{r.Metadata.KVs},
	}
	byType := map[gguf.TensorType]*inspectTypeTotal{}
	for _, t := range r.Tensors {
		rep.Tensors = append(rep.Tensors, inspectTensor{t.Name, t.Type.String(), t.Dims, t.Size, t.Offset})
		rep.Totals.Tensors++
		rep.Totals.Parameters += t.Elements()
		rep.Totals.DataBytes += t.Size
		tt := byType[t.Type]
		if tt == nil {
			tt = &inspectTypeTotal{Type: t.Type.String()}
			byType[t.Type] = tt
		}
		tt.Tensors++
		tt.Parameters += t.Elements()
		tt.Bytes += t.Size
	}
	for _, tt := range byType {
		rep.Totals.ByType = append(rep.Totals.ByType, *tt)
	}
	sort.Slice(rep.Totals.ByType, func(i, j int) bool {
		a, b := rep.Totals.ByType[i], rep.Totals.ByType[j]
		return a.Bytes > b.Bytes || a.Bytes == b.Bytes && a.Type < b.Type
	})
	rep.Totals.ParametersHuman = inspectHumanCount(rep.Totals.Parameters)
	rep.Tokenizer = inspectTokenizerOf(&r.Metadata)
	return rep, nil
}

// inspectTokenizerOf summarises the tokenizer.* keys, or nil without any.
func inspectTokenizerOf(md *gguf.Metadata) *inspectTokenizer {
	found := false
	for _, kv := range md.KVs {
		if strings.HasPrefix(kv.Key, "tokenizer.") {
			found = true
			break
		}
	}
	if !found {
		return nil
	}
	tok := &inspectTokenizer{}
	tok.Model, _ = md.String("tokenizer.ggml.model")
	tok.Pre, _ = md.String("tokenizer.ggml.pre")
	vocab, _ := md.Strings("tokenizer.ggml.tokens")
	if a, ok := md.Array("tokenizer.ggml.tokens"); ok {
		tok.VocabSize = a.Len()
	}
	if a, ok := md.Array("tokenizer.ggml.merges"); ok {
		tok.Merges = a.Len()
	}
	for _, sp := range inspectSpecialKeys {
		id, ok := md.Int("tokenizer.ggml." + sp.key + "_token_id")
		if !ok {
			continue
		}
		s := inspectSpecial{Role: sp.role, ID: id}
		if id >= 0 && id < int64(len(vocab)) {
			s.Text, s.InVocab = vocab[id], true
		}
		tok.Special = append(tok.Special, s)
	}
	if b, ok := md.Bool("tokenizer.ggml.add_bos_token"); ok {
		tok.AddBOS = &b
	}
	if b, ok := md.Bool("tokenizer.ggml.add_eos_token"); ok {
		tok.AddEOS = &b
	}
	if s, ok := md.String("tokenizer.chat_template"); ok {
		tok.ChatTemplate = true
		tok.ChatTemplateBytes = len(s)
	}
	for _, kv := range md.KVs {
		if name, ok := strings.CutPrefix(kv.Key, "tokenizer.chat_template."); ok {
			tok.OtherTemplates = append(tok.OtherTemplates, name)
		}
	}
	return tok
}

// inspectSpecialKeys are the special-token keys (tokenizer.ggml.KEY_token_id,
// llama.cpp's spelling) and the short role shown for each.
var inspectSpecialKeys = []struct{ key, role string }{
	{"bos", "bos"}, {"eos", "eos"}, {"eot", "eot"}, {"eom", "eom"},
	{"unknown", "unk"}, {"padding", "pad"}, {"seperator", "sep"}, {"cls", "cls"}, {"mask", "mask"},
}

// inspectHumanCount writes a count with three significant digits and a
// unit: 950, 292K, 1.24B.
func inspectHumanCount(n uint64) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	v := float64(n)
	unit := ""
	for _, u := range []string{"K", "M", "B", "T"} {
		if v < 999.5 {
			break
		}
		v /= 1000
		unit = u
	}
	switch {
	case v >= 99.95:
		return fmt.Sprintf("%.0f%s", v, unit)
	case v >= 9.995:
		return fmt.Sprintf("%.1f%s", v, unit)
	}
	return fmt.Sprintf("%.2f%s", v, unit)
}

// inspectHumanBytes writes a byte count in binary units: 1.17 MiB.
func inspectHumanBytes(n uint64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v := float64(n)
	unit := ""
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		if v < 1023.95 {
			break
		}
		v /= 1024
		unit = u
	}
	return fmt.Sprintf("%.2f %s", v, unit)
}
