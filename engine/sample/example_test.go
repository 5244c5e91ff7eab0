package sample_test

import (
	"fmt"

	"github.com/emberllm/ember/engine/sample"
)

// A stop string split across token pieces: the matcher holds back "<|" and
// "<|im" until it knows, and drops the stop string itself.
func ExampleStopStrings() {
	m := sample.NewStopStrings([]string{"<|im_end|>"})
	for _, piece := range []string{"Hi", " there<|", "im", "_end|>", "ignored"} {
		emit, stopped := m.Feed(piece)
		fmt.Printf("%q %v\n", emit, stopped)
	}
	// Output:
	// "Hi" false
	// " there" false
	// "" false
	// "" true
	// "" true
}

func ExampleSampler() {
	o := sample.DefaultOptions()
	o.Temperature = 0 // greedy
	s := sample.New(o)
	fmt.Println(s.Sample([]float32{0.5, 2.5, -1, 2.5}, nil))
	// Output: 1
}
