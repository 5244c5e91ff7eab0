//go:build darwin

package metal

import "github.com/emberllm/ember/gpu"

// Open opens the system's Metal device.
func Open(o Options) (gpu.Backend, error) {
	dev, err := openDevice()
	if err != nil {
		return nil, err
	}
	return newBackend(dev, o), nil
}
