// Command ember is the native CLI of the ember engine: run, chat, serve,
// bench, inspect, synth, quantize, tokenize and the model registry.
//
// Each subcommand lives in a file of its own and registers itself in init,
// so commands can be added without touching this file.
package main

import (
	"errors"
	"flag"
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

func main() { os.Exit(mainArgs(os.Args[1:])) }

// mainArgs runs the command line args (without the program name) and
// returns the exit status: 0 for success and for help asked for with -h
// or `ember help [COMMAND]`, 2 for a usage mistake, 1 for a failure.
func mainArgs(args []string) int {
	if len(args) == 0 {
		usage()
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help":
		usage()
		return 0
	case "help":
		if len(args) < 2 {
			usage()
			return 0
		}
		// `ember help run` is `ember run -h`.
		name, args = args[1], []string{args[1], "-h"}
	}
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "ember: unknown command %q\n\n", name)
		usage()
		return 2
	}
	err := cmd.run(args[1:])
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintln(os.Stderr, errorLine(name, err))
	return 1
}

// errorLine is the message a failed command prints: "ember NAME: " before
// the error, unless the error already starts with "ember", and without a
// prefix the error repeats ("synth: synth: ...").
func errorLine(name string, err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "ember") {
		return msg
	}
	msg = strings.TrimPrefix(msg, name+": ")
	return "ember " + name + ": " + msg
}
