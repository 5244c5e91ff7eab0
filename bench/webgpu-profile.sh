#!/usr/bin/env bash
# Where a WebGPU decode step's time goes, by kernel file: BenchmarkDecodeStep
# (gpu/webgpu) times the whole step, then the step without each file's
# kernels; the difference is what those kernels add to the step's chain of
# dependent dispatches (the measure for latency-bound kernels). Prints one
# row per file, largest first.
#
#   bench/webgpu-profile.sh                       # llama3.2:1b Q4_0
#   MODEL=qwen3:0.6b/Q8_0 bench/webgpu-profile.sh
#   TEST=.devbin/webgpu.test EMBER=.devbin/ember bench/webgpu-profile.sh
#                                                 # on a machine without Go
#
# MODEL is shape/type as in bench/webgpu.sh (or a GGUF path); N is steps a class,
# ROUNDS (3) how many times each class runs. EMBER_BENCH_BATCH=16 profiles
# serving's batch step of 16 sequences instead (EMBER_BENCH_TOKENS=T: a
# prefill chunk of T tokens).
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=${MODEL:-llama3.2:1b/Q4_0}
N=${N:-10}
WORK=${WORK:-/tmp/ember-bench}
TEST=${TEST:-}
EMBER=${EMBER:-}
if [ -z "$EMBER" ]; then
  go build -o bin/ember ./cmd/native
  EMBER=bin/ember
fi
if [ -z "$TEST" ]; then
  go test -c -o bin/webgpu.test ./gpu/webgpu
  TEST=bin/webgpu.test
fi
file=$MODEL
if [ ! -f "$file" ]; then
  shape=${MODEL%/*}; type=${MODEL#*/}
  mkdir -p "$WORK"
  file="$WORK/${shape//:/-}-$type.gguf"
  [ -f "$file" ] || "$EMBER" synth --shape "$shape" --type "$type" --seed 1 -o "$file" >&2
fi
file=$(realpath "$file")
TEST=$(realpath "$TEST")
# Each class runs ROUNDS times (the classes in turn) and keeps its fastest:
# on the H100 the first classes after a large model's load have come out up
# to three times slower than the same kernels later in the run.
out=$(cd gpu/webgpu && EMBER_BENCH_MODEL="$file" \
  "$TEST" -test.run XXX -test.bench 'DecodeStep/(all$|without-)' -test.benchtime "${N}x" -test.count "${ROUNDS:-3}" 2>&1) || { echo "$out" >&2; exit 1; }
rows=$(echo "$out" | awk '
  $1 ~ /^BenchmarkDecodeStep\// {
    name = $1; sub(/^BenchmarkDecodeStep\//, "", name); sub(/-[0-9]+$/, "", name)
    k = 0
    for (i = 4; i < NF; i++) if ($(i + 1) == "kernels") k = $i
    ms = $3 / 1e6
    if (!(name in best) || ms < best[name]) best[name] = ms
    kern[name] = int(k)
  }
  END { for (n in best) print n, best[n], kern[n] }')
read -r _ all allk < <(echo "$rows" | grep '^all ')
printf 'step: %.3f ms, %d kernels\n\n| kernel file | kernels | step without (ms) | adds (ms) |\n|---|---|---|---|\n' "$all" "$allk"
echo "$rows" | grep '^without-' | sed 's/^without-//' |
  awk -v all="$all" -v allk="$allk" '{ printf "| %s | %d | %.3f | %.3f |\n", $1, allk - $3, $2, all - $2 }' |
  sort -t'|' -k5 -g -r
