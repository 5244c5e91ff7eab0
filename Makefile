# ember — see README.md. `make run` is the main job, `make test` the whole suite.
GO      ?= go
# ../shared's copy when present, else the registry name: downloaded once into
# the cache ($EMBER_CACHE or ~/.cache/ember), then used offline from there.
MODEL   ?= $(or $(wildcard ../shared/models/stories260K.gguf),stories260k)
PROMPT  ?= Once upon a time
COUNT   ?= 128
EMBER   := bin/ember

.PHONY: all build run test deps oracle vet cross arm64 fuzz clean

all: build

build:
	$(GO) build -o $(EMBER) ./cmd/native

deps:
	@.ci/deps.sh

oracle: deps

run: build
	$(EMBER) run --model $(MODEL) --prompt "$(PROMPT)" --count $(COUNT)

vet:
	$(GO) vet ./...

# The builds every change must keep green: the browser (wasm) and Metal (darwin).
cross:
	GOOS=js GOARCH=wasm $(GO) build -o /dev/null ./cmd/wasm
	GOOS=js GOARCH=wasm $(GO) vet ./cmd/wasm ./gpu/webgpu
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./gpu/metal/... ./cmd/native

test: deps vet cross arm64
	$(GO) test -timeout 60m ./...

# The NEON kernels run here under qemu-user (.ci/deps.sh installs it) and
# must give the pure-Go kernels' results; the models' tests then hold the
# arm64 build to llama.cpp's tokens too (Go fuses a*b+c on arm64, not on
# amd64, so a product llama.cpp rounds before an add must say so).
arm64:
	GOARCH=arm64 $(GO) test -exec qemu-aarch64 ./engine/quant ./engine/model

fuzz:
	$(GO) test ./engine/gguf -run '^$$' -fuzz FuzzRead -fuzztime 10m

clean:
	rm -rf bin
