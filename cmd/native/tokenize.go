package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
	"github.com/emberllm/ember/engine/tokenizer"
)

func init() {
	register("tokenize", "print the token ids of a text (the model's own tokenizer)", runTokenize)
}

func runTokenize(args []string) error { return tokenizeCmd(os.Stdout, os.Stdin, args) }

// tokenizeCmd is the command with its input and output, for tests.
func tokenizeCmd(w io.Writer, stdin io.Reader, args []string) error {
	fs := flag.NewFlagSet("tokenize", flag.ContinueOnError)
	model := fs.String("model", "", "GGUF file whose vocabulary to use (a model or a vocabulary-only file), a registry name or a URL")
	noSpecial := fs.Bool("no-special", false, "treat the text of control tokens (<|im_start|>, <s> ...) as plain text")
	show := fs.Bool("show", false, "print one token per line: its id and its piece, quoted with escapes")
	addSpecial := fs.Bool("bos", false, "add BOS/EOS as the vocabulary asks (tokenizer.ggml.add_bos_token)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: ember tokenize --model FILE [--no-special] [--show] [--bos] [TEXT ...]\n\n"+
			"Prints the token ids of TEXT (the arguments joined by spaces), or of standard input\n"+
			"taken byte for byte when no TEXT is given.")
		fs.PrintDefaults()
	}
	// Flags may come before or after the text.
	var words []string
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
		words = append(words, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if *model == "" {
		return errors.New("--model FILE is required (see ember tokenize -h)")
	}
	var text string
	if len(words) > 0 {
		text = strings.Join(words, " ")
	} else {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return fmt.Errorf("reading standard input: %w", err)
		}
		text = string(b)
	}
	path, err := resolveModel(*model)
	if err != nil {
		return err
	}
	r, err := gguf.Open(path)
	if err != nil {
		return err
	}
	tk, err := tokenizer.FromGGUF(&r.Metadata)
	r.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", *model, err)
	}
	ids := tk.Encode(text, *addSpecial, !*noSpecial)
	if *show {
		for _, id := range ids {
			if _, err := fmt.Fprintf(w, "%d\t%s\n", id, strconv.Quote(tk.Piece(id))); err != nil {
				return err
			}
		}
		return nil
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(int(id))
	}
	_, err = fmt.Fprintln(w, strings.Join(s, " "))
	return err
}
