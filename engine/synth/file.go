package synth

import (
	"fmt"
	"os"

	"github.com/emberllm/ember/engine/quantize"
)

// WriteFile writes a model of a preset shape (and architecture, "" for the
// preset's own) with the built-in byte-level vocabulary, in one type or
// mix (typ as quantize.ParseScheme reads it, every tensor of that type),
// to path: what tests and benchmarks need in one call.
func WriteFile(path, shape string, arch Arch, typ string, seed uint64) error {
	cfg, err := Preset(shape, arch)
	if err != nil {
		return err
	}
	v, err := BuiltinVocab(cfg.Vocab)
	if err != nil {
		return err
	}
	if err := cfg.Apply(v); err != nil {
		return err
	}
	scheme, err := quantize.ParseScheme(typ, true)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := Write(f, &cfg, v, Options{Scheme: scheme, Seed: seed, Workers: 2}); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("synth: %s: %w", path, err)
	}
	return f.Close()
}
