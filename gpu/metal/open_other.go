//go:build !darwin

package metal

import (
	"errors"

	"github.com/emberllm/ember/gpu"
)

// Open reports that Metal is only on macOS.
func Open(Options) (gpu.Backend, error) {
	return nil, errors.New("metal: Metal is only on macOS")
}
