# ember — see README.md. `make run` is the main job, `make test` the whole suite.
GO      ?= go
# ../shared's copy when present, else the registry name: downloaded once into
# the cache ($EMBER_CACHE or ~/.cache/ember), then used offline from there.
MODEL   ?= $(or $(wildcard ../shared/models/stories260K.gguf),stories260k)
PROMPT  ?= Once upon a time
COUNT   ?= 128
EMBER   := bin/ember

.PHONY: all build web run test deps oracle vet cross arm64 parity fuzz clean

all: build

# ember with the page's in-tab engine embedded (web/dist, from make web).
build: web
	$(GO) build -tags emberweb -o $(EMBER) ./cmd/native

# The engine for a browser tab: cmd/wasm built for js/wasm and Go's own
# wasm_exec.js, into web/dist (embedded by make build) and, with the page,
# into out/web: a folder any static host serves.
web:
	@mkdir -p web/dist out/web
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags=-s -o web/dist/ember.wasm ./cmd/wasm
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" web/dist/wasm_exec.js
	gzip -9 -n -f -k web/dist/ember.wasm
	cp web/index.html web/app.js web/ember.js web/worker.js web/dist/ember.wasm web/dist/wasm_exec.js out/web/

deps:
	@.ci/deps.sh

oracle: deps

run: build
	$(EMBER) run --model $(MODEL) --prompt "$(PROMPT)" --count $(COUNT)

vet:
	$(GO) vet ./...

# The builds every change must keep green: the browser (wasm) and macOS
# (darwin/arm64 without cgo: every package, the Metal backend's darwin half
# and its darwin-only tests, which go vet type-checks, included).
cross:
	GOOS=js GOARCH=wasm $(GO) build -o /dev/null ./cmd/wasm
	GOOS=js GOARCH=wasm $(GO) vet ./cmd/wasm ./gpu/webgpu
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 $(GO) build ./...
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 $(GO) vet ./...

# .ci/test.sh runs the suite: gpu/webgpu's tests beside vet, cross,
# arm64 and the other packages' tests (it says why).
test: deps
	@GO=$(GO) .ci/test.sh

# The NEON kernels run here under qemu-user (.ci/deps.sh installs it) and
# must give the pure-Go kernels' results; the models' tests then hold the
# arm64 build to llama.cpp's tokens too (Go fuses a*b+c on arm64, not on
# amd64, so a product llama.cpp rounds before an add must say so), on the
# parity tests' representative subset (about a minute under qemu; make
# parity runs them all, natively). QEMU's "max" CPU has dotprod and i8mm,
# so the kernels that use them run; the kernel tests run again on a
# Cortex-A53 (NEON alone) for the kernels without.
arm64:
	GOARCH=arm64 QEMU_CPU=max $(GO) test -exec qemu-aarch64 ./engine/quant ./engine/model
	GOARCH=arm64 QEMU_CPU=cortex-a53 $(GO) test -exec qemu-aarch64 ./engine/quant

# Every llama.cpp parity case, where make test runs a representative one
# of each layout and weight type: llama and qwen3 in every weight type on
# two prompts, each mixture-of-experts and latent-attention layout in five,
# stories260K on four prompts. EMBER_ORACLE_BUILD=haswell make parity runs
# llama.cpp's haswell build, as a CPU without AVX-512 would.
parity: deps
	EMBER_PARITY=all $(GO) test -count=1 -run 'GreedyParity' ./engine/model

fuzz:
	$(GO) test ./engine/gguf -run '^$$' -fuzz FuzzRead -fuzztime 10m

clean:
	rm -rf bin out web/dist
