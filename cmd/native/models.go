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
	// Files pulled by URL (or placed by hand) are named by the URL's MD5;
	// a pull notes the URL beside the file.
	ents, _ := os.ReadDir(dir)
	ow := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	other := 0
	for _, e := range ents {
		name := e.Name()
		key := strings.TrimSuffix(name, ".gguf")
		if !e.Type().IsRegular() || known[key] || !registry.IsKey(key) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if other++; other == 1 {
			fmt.Fprintf(w, "\nother files in the cache (pulled by URL; ember rm takes the name or the URL):\n")
			fmt.Fprintln(ow, "  FILE\tSIZE\tURL")
		}
		url := registry.SourceURL(key)
		if url == "" {
			url = "(unknown: placed by hand)"
		}
		fmt.Fprintf(ow, "  %s\t%s\t%s\n", name, registry.FormatBytes(info.Size()), url)
	}
	return ow.Flush()
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
	refs, err := modelArgs("rm", "Usage: ember rm NAME|URL|FILE ...\n\nRemoves models (and unfinished downloads of them) from the cache: by registry name,\nby URL, or by the file name ember ls prints.", args)
	if err != nil || refs == nil {
		return err
	}
	for _, ref := range refs {
		key, err := cacheKey(ref)
		if err != nil {
			return err
		}
		removed, err := registry.RemoveKey(key, ref)
		if err != nil {
			return err
		}
		if removed {
			fmt.Printf("removed %s (%s.gguf)\n", ref, key)
		} else {
			fmt.Printf("%s is not in the cache\n", ref)
		}
	}
	return nil
}

// cacheKey is the cache key rm removes: a registry name's or a URL's, or
// a file's as ls lists it (KEY.gguf, KEY, or its path in the cache).
func cacheKey(ref string) (string, error) {
	if m, ok := registry.ModelOf(ref); ok {
		return registry.Key(m.URL), nil
	}
	key := strings.TrimSuffix(filepath.Base(ref), ".gguf")
	if registry.IsKey(key) {
		if dir, err := registry.CacheDir(); err == nil && (filepath.Base(ref) == ref || filepath.Dir(ref) == dir) {
			return key, nil
		}
		return "", fmt.Errorf("%s is not in the cache: ember rm removes cached files only", ref)
	}
	return "", fmt.Errorf("unknown model %q: give a registry name, a URL or a file name as ember ls prints them", ref)
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
