package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/emberllm/ember/engine/registry"
)

// The model registry commands: ls, pull, rm. Every command that takes a
// model resolves it through resolveModel, so a registry name, a file and a
// URL work the same everywhere.

func init() {
	register("ls", "list the registry's models and what is in the cache", runLs)
	register("pull", "download models by registry name or URL into the cache", runPull)
	register("rm", "remove models from the cache", runRm)
}

// resolveModel turns a --model value into a local file, downloading it into
// the cache with progress on stderr when needed. Ctrl-C stops a download
// cleanly: the partial file stays and the next run resumes it.
func resolveModel(ref string) (string, error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return registry.Resolve(ctx, ref, registry.Options{Log: os.Stderr})
}

func runLs(args []string) error { return lsCmd(os.Stdout, args) }

func lsCmd(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("ls", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ember ls\n\nLists the registry's model names, whether each is in the cache and its size,\nthen other files in the cache. The cache is $%s if set, else ember/ in\nthe user's cache directory.\n", registry.CacheEnv)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("ls takes no arguments")
	}
	dir, err := registry.CacheDir()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "cache: %s\n\n", dir)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tSIZE\tMODEL")
	known := map[string]bool{}
	for _, m := range registry.Models() {
		known[registry.Key(m.URL)] = true
		state, size := "-", "-"
		if m.Size > 0 {
			size = registry.FormatBytes(m.Size)
		}
		if path, n, err := registry.Cached(m); err != nil {
			state = "bad size"
		} else if path != "" {
			state, size = "cached", registry.FormatBytes(n)
		} else if n := registry.Partial(m); n > 0 {
			state = "partial " + registry.FormatBytes(n)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", m.Name, state, size, m.About)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// Files pulled by URL (or placed by hand) carry only the URL's MD5.
	ents, _ := os.ReadDir(dir)
	var other []string
	for _, e := range ents {
		name := e.Name()
		key := strings.TrimSuffix(name, ".gguf")
		if !e.Type().IsRegular() || known[key] || len(key) != 32 || strings.ContainsRune(key, '.') {
			continue
		}
		if info, err := e.Info(); err == nil {
			other = append(other, fmt.Sprintf("  %s  %s", name, registry.FormatBytes(info.Size())))
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(w, "\nother files in the cache (pulled by URL; the name is the URL's MD5):\n%s\n", strings.Join(other, "\n"))
	}
	return nil
}

func runPull(args []string) error {
	refs, err := modelArgs("pull", "Usage: ember pull NAME|URL ...\n\nDownloads models into the cache (resuming an interrupted download) and\nprints their paths. `ember ls` lists the names.", args)
	if err != nil || refs == nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	for _, ref := range refs {
		m, err := modelRef(ref)
		if err != nil {
			return err
		}
		path, _, err := registry.Cached(m)
		if err != nil {
			return err
		}
		if path != "" {
			fmt.Fprintf(os.Stderr, "%s: already in the cache\n", ref)
		} else if path, err = registry.Get(ctx, m, registry.Options{Log: os.Stderr}); err != nil {
			return err
		}
		fmt.Println(path)
	}
	return nil
}

func runRm(args []string) error {
	refs, err := modelArgs("rm", "Usage: ember rm NAME|URL ...\n\nRemoves models (and unfinished downloads of them) from the cache.", args)
	if err != nil || refs == nil {
		return err
	}
	for _, ref := range refs {
		m, err := modelRef(ref)
		if err != nil {
			return err
		}
		removed, err := registry.Remove(m)
		if err != nil {
			return err
		}
		path, _ := registry.Path(m.URL)
		if removed {
			fmt.Printf("removed %s (%s)\n", ref, filepath.Base(path))
		} else {
			fmt.Printf("%s is not in the cache\n", ref)
		}
	}
	return nil
}

// modelArgs parses the arguments of pull and rm: no options, one or more
// names or URLs. It returns nil, nil after -h.
func modelArgs(name, usage string, args []string) ([]string, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprintln(fs.Output(), usage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil
		}
		return nil, err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return nil, fmt.Errorf("%s wants a model name or URL", name)
	}
	return fs.Args(), nil
}

// modelRef is the registry entry of a name or URL, for pull and rm, which
// work on the cache and so take no local paths.
func modelRef(ref string) (registry.Model, error) {
	if m, ok := registry.ModelOf(ref); ok {
		return m, nil
	}
	return registry.Model{}, fmt.Errorf("unknown model %q: give a registry name (see ember ls) or an http(s) URL", ref)
}
