//go:build cgo && !js

package webgpu_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/emberllm/ember/engine/synth"
	"github.com/emberllm/ember/gpu"
)

// tinyModel is one tiny synthetic model of a fusion test.
type tinyModel struct {
	shape string
	arch  synth.Arch
	typ   string
}

// fusionKeepsLogits decodes prompt for 8 steps on each model (seeds from
// seed on) with a fusion off, then on (toggle), forcing the first run's
// tokens, and fails unless the fused steps take fewer kernels and give
// every logit bit for bit. what names the fusion in the messages.
func fusionKeepsLogits(t *testing.T, be gpu.Backend, models []tinyModel, prompt []int32, seed uint64, toggle func(on bool), what string) {
	dir := t.TempDir()
	for i, c := range models {
		t.Run(fmt.Sprintf("%s-%s-%s", c.shape, c.arch, c.typ), func(t *testing.T) {
			path := writeTiny(t, dir, c.shape, c.arch, c.typ, seed+uint64(i))
			toggle(false)
			apart, ka := decode(t, be, path, prompt, 8, nil), len(decodeKernels(t, be, path))
			toggle(true)
			fused, kf := decode(t, be, path, prompt, 8, apart.Next), len(decodeKernels(t, be, path))
			t.Logf("%d kernels a decode step, %d apart", kf, ka)
			if kf >= ka {
				t.Errorf("%d kernels a decode step with %s, %d without: want fewer", kf, what, ka)
			}
			for k := range apart.Logits {
				for j, v := range apart.Logits[k] {
					if math.Float32bits(fused.Logits[k][j]) != math.Float32bits(v) {
						t.Fatalf("step %d, logit %d: %g with %s, %g without", k, j, fused.Logits[k][j], what, v)
					}
				}
			}
		})
	}
}
