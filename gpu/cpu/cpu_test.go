package cpu_test

import (
	"testing"

	"github.com/emberllm/ember/gpu"
	"github.com/emberllm/ember/gpu/cpu"
	"github.com/emberllm/ember/gpu/gputest"
)

func TestOpsOneThread(t *testing.T) {
	gputest.RunOpSuite(t, func() gpu.Backend { return cpu.New(1) })
}

func TestOpsTwoThreads(t *testing.T) {
	gputest.RunOpSuite(t, func() gpu.Backend { return cpu.New(2) })
}

// Four workers on a two-core machine: oversubscribed barriers must still
// make progress, and work splits differ again.
func TestOpsFourThreads(t *testing.T) {
	gputest.RunOpSuite(t, func() gpu.Backend { return cpu.New(4) })
}
