package model_test

import (
	"github.com/emberllm/ember/engine/model"
	"github.com/emberllm/ember/gpu/gputest"
)

// The parity tests of package model hold ember to gputest's measure and
// bound where llama.cpp runs a build ember does not mirror; gputest
// imports package model, so only this external test package can hand them
// over. Package initialisation ends before any test of the binary runs.
func init() {
	model.Parity.Divergence = gputest.Divergence
	model.Parity.LogitRows = gputest.LogitRows
	model.Parity.Check = gputest.ParityBound.Check
}
