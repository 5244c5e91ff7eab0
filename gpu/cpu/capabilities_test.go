package cpu_test

import (
	"testing"

	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
)

// The CPU backend shares the host's memory: it is no Copier (the engine
// takes a Copier for a device, where it chains greedy steps and chooses
// sampling candidates on the device), and it copies weights unless told
// to keep the mapped file's memory.
func TestCapabilities(t *testing.T) {
	for _, mapped := range []bool{false, true} {
		var be gpu.Backend = cpu.NewWith(cpu.Options{Threads: 1, Mapped: mapped})
		if _, ok := be.(gpu.Copier); ok {
			t.Errorf("mapped %v: the CPU backend is a gpu.Copier", mapped)
		}
		wc, ok := be.(gpu.WeightCopier)
		if !ok {
			t.Fatalf("mapped %v: the CPU backend is no gpu.WeightCopier", mapped)
		}
		if wc.CopiesWeights() == mapped {
			t.Errorf("mapped %v: CopiesWeights is %v", mapped, wc.CopiesWeights())
		}
		be.Close()
	}
}
