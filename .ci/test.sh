#!/usr/bin/env bash
# make test's body: the whole suite, on as many cores as it can use.
# The WebGPU package's tests (lavapipe compiling every pipeline cold,
# Chromium running the op suite on SwiftShader: about ten minutes on 2
# cores, mostly on one) start first and run beside everything else: in
# the queue of ./... they started last and ran alone, the second core
# idle, for half the suite's time. The browser tests (web) lead the rest
# of the queue for the same reason. WebGPU's output is printed after the
# rest's; the exit status is non-zero if any part failed.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
webgpu=./gpu/webgpu
log=$(mktemp)
echo "$GO test -timeout 60m $webgpu (beside the rest; its output at the end)"
"$GO" test -timeout 60m "$webgpu" >"$log" 2>&1 &
gpu=$!
trap 'kill "$gpu" 2>/dev/null; rm -f "$log"' EXIT
rc=0
make --no-print-directory GO="$GO" vet cross arm64 || rc=1
rest=$("$GO" list ./... | grep -v -e '/gpu/webgpu$' -e '/web$') || rc=1
echo "$GO test -timeout 60m ./web ./... (but $webgpu)"
"$GO" test -timeout 60m ./web $rest || rc=1
wait "$gpu" || rc=1
cat "$log"
exit $rc
