package server

import (
	"path/filepath"
	"strings"

	"github.com/emberllm/ember/engine/gguf"
)

// OpenFile resolves what --model names to an opened GGUF file. It is the
// one place that turns a model reference into a file, so a resolver that
// also understands registry names and URLs replaces this body alone.
func OpenFile(ref string) (*gguf.Reader, error) { return gguf.Open(ref) }

// ModelName is the id a model is listed under: the file name without its
// directory and .gguf extension, as clients see it in /v1/models.
func ModelName(ref string) string {
	name := strings.TrimSuffix(filepath.Base(ref), ".gguf")
	if name == "" || name == "." || name == "/" {
		return "model"
	}
	return name
}
