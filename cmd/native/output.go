package main

import (
	"fmt"
	"io"
	"os"

	"github.com/emberllm/ember/engine"
)

// streamPrinter writes generated text as it comes, reasoning first under a
// "Thinking..." header (as Ollama shows it), then the answer.
type streamPrinter struct {
	w        io.Writer
	thinking bool
}

func (p *streamPrinter) event(ev engine.Event) error {
	if ev.Reasoning != "" {
		if !p.thinking {
			fmt.Fprint(p.w, "Thinking...\n")
			p.thinking = true
		}
		fmt.Fprint(p.w, ev.Reasoning)
	}
	if ev.Text != "" {
		p.endThinking()
		fmt.Fprint(p.w, ev.Text)
	}
	if f, ok := p.w.(*os.File); ok {
		_ = f.Sync()
	}
	return nil
}

func (p *streamPrinter) endThinking() {
	if p.thinking {
		fmt.Fprint(p.w, "\n...done thinking.\n\n")
		p.thinking = false
	}
}

func printStats(w io.Writer, s engine.Stats) {
	fmt.Fprintf(w, "\n[prompt %d tokens (%d reused), %.1f tok/s | generated %d tokens, %.1f tok/s | first token %.0f ms | %s]\n",
		s.PromptTokens, s.ReusedTokens, s.PrefillRate(), s.GeneratedTokens, s.DecodeRate(),
		float64(s.TimeToFirst.Microseconds())/1000, s.StopReason)
}
