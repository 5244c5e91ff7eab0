// Command llamatool prints the path of one of llama.cpp's command-line
// tools, built on first use from node-llama-cpp's source against its
// prebuilt libraries (internal/oracle.Tool), for the benchmark scripts:
//
//	go run ./bench/llamatool llama-bench            # the CPU build llama.cpp picks here
//	go run ./bench/llamatool -build haswell llama-bench
//
// With -build (or EMBER_ORACLE_BUILD) the tool sits in a folder of its own
// holding only that CPU build of ggml, so llama.cpp runs it as on a CPU
// with nothing better (haswell: AVX2 without AVX-512).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/emberllm/ember/internal/oracle"
)

func main() {
	build := flag.String("build", os.Getenv(oracle.BuildEnv), "llama.cpp CPU build to run on (haswell, zen4, ...); empty: the best for this CPU")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: llamatool [-build NAME] TOOL")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	path, err := oracle.ToolOnBuild(flag.Arg(0), *build)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(path)
}
