# ember — see README.md. `make run` is the main job, `make test` the whole suite.
GO      ?= go
MODEL   ?= $(wildcard ../shared/models/stories260K.gguf)
PROMPT  ?= Once upon a time
COUNT   ?= 128
EMBER   := bin/ember

.PHONY: all build run test deps oracle vet cross fuzz clean

all: build

build:
	$(GO) build -o $(EMBER) ./cmd/native

deps:
	@.ci/deps.sh

oracle: deps

run: build
	@if [ -z "$(MODEL)" ]; then \
	  echo "make run: no model found (../shared/models/stories260K.gguf is absent)."; \
	  echo "Point it at a GGUF file: make run MODEL=path/to/model.gguf [PROMPT='...']"; exit 2; fi
	$(EMBER) run --model $(MODEL) --prompt "$(PROMPT)" --count $(COUNT)

vet:
	$(GO) vet ./...

# The builds every change must keep green: the browser (wasm) and Metal (darwin).
cross:
	GOOS=js GOARCH=wasm $(GO) build -o /dev/null ./cmd/wasm
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./gpu/metal/... ./cmd/native

test: deps vet cross
	$(GO) test -timeout 60m ./...

fuzz:
	$(GO) test ./engine/gguf -run '^$$' -fuzz FuzzRead -fuzztime 10m

clean:
	rm -rf bin
