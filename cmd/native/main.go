// Command ember is the native CLI of the ember engine: run, chat, serve,
// bench, inspect, synth, quantize, tokenize and the model registry.
//
// Each subcommand lives in a file of its own and registers itself in init,
// so commands can be added without touching this file.
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// command is one subcommand: its one-line summary and its entry point,
// which receives the arguments after the subcommand's name.
type command struct {
	summary string
	run     func(args []string) error
}

var commands = map[string]command{}

func register(name, summary string, run func(args []string) error) {
	if _, dup := commands[name]; dup {
		panic("ember: command registered twice: " + name)
	}
	commands[name] = command{summary, run}
}

func usage() {
	fmt.Fprintln(os.Stderr, "ember runs GGUF language models on the CPU, WebGPU and Metal.\n\nUsage: ember COMMAND [options]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\nRun 'ember COMMAND -h' for the options of a command.")
}

func main() {
	if len(os.Args) < 2 || os.Args[1] == "-h" || os.Args[1] == "--help" || os.Args[1] == "help" {
		usage()
		if len(os.Args) < 2 {
			os.Exit(2)
		}
		return
	}
	name := os.Args[1]
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "ember: unknown command %q\n\n", name)
		usage()
		os.Exit(2)
	}
	if err := cmd.run(os.Args[2:]); err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "ember") {
			msg = "ember " + name + ": " + msg
		}
		fmt.Fprintln(os.Stderr, msg)
		os.Exit(1)
	}
}
