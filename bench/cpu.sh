#!/usr/bin/env bash
# ember vs llama.cpp on the CPU: the same synthetic GGUF files, the same
# machine, the same thread count, measured in one run so the ratios hold on a
# noisy shared machine. Prints a markdown table.
#
#   bench/cpu.sh                      # the issue's set of models
#   MODELS="llama3.2:1b/Q4_0" P=64 N=16 R=2 THREADS=2 bench/cpu.sh
#
# llama.cpp's llama-bench is built once from the source that ships inside
# node-llama-cpp (internal/oracle/node_modules), into $WORK/llama.cpp.
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-$(nproc)}
P=${P:-128}
N=${N:-32}
R=${R:-3}
WORK=${WORK:-/tmp/ember-bench}
MODELS=${MODELS:-"llama3.2:1b/Q4_0 llama3.2:1b/Q8_0 llama3.2:1b/Q4_K_M qwen3:0.6b/Q8_0"}
mkdir -p "$WORK"

LLAMA_BENCH=${LLAMA_BENCH:-$WORK/llama.cpp/build/bin/llama-bench}
if [ ! -x "$LLAMA_BENCH" ]; then
  make -s deps
  command -v cmake >/dev/null || { echo "bench: installing cmake"; apt-get install -y -qq cmake >/dev/null; }
  echo "bench: building llama-bench from node-llama-cpp's llama.cpp source (once)" >&2
  rm -rf "$WORK/llama.cpp"
  git clone -q internal/oracle/node_modules/node-llama-cpp/llama/gitRelease.bundle "$WORK/llama.cpp"
  cmake -S "$WORK/llama.cpp" -B "$WORK/llama.cpp/build" -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=ON \
    -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF >/dev/null
  cmake --build "$WORK/llama.cpp/build" --target llama-bench -j "$(nproc)" >/dev/null
fi

go build -o bin/ember ./cmd/native

echo "| model | type | size | threads | ember pp$P tok/s | llama.cpp pp$P tok/s | ratio | ember tg$N tok/s | llama.cpp tg$N tok/s | ratio | kernels/token |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for m in $MODELS; do
  shape=${m%/*}; type=${m#*/}
  file="$WORK/${shape//:/-}-$type.gguf"
  [ -f "$file" ] || bin/ember synth --shape "$shape" --type "$type" --seed 1 -o "$file" >&2
  ej=$(bin/ember bench --model "$file" -p "$P" -n "$N" -r "$R" --threads "$THREADS" --json 2>/dev/null)
  lj=$("$LLAMA_BENCH" -m "$file" -p "$P" -n "$N" -r "$R" -t "$THREADS" -o json 2>/dev/null)
  python3 - "$shape" "$type" "$file" "$THREADS" "$ej" "$lj" <<'PY'
import json, os, sys
shape, typ, path, threads, ej, lj = sys.argv[1:]
e = json.loads(ej); l = json.loads(lj)
lpp = next(x for x in l if x["n_prompt"] > 0 and x["n_gen"] == 0)
ltg = next(x for x in l if x["n_gen"] > 0 and x["n_prompt"] == 0)
fmt = lambda m, s: f"{m:.2f} ± {s:.2f}"
print(f"| {shape} | {typ} | {os.path.getsize(path)/1e9:.2f} GB | {threads} "
      f"| {fmt(e['prefill_mean'], e['prefill_sd'])} | {fmt(lpp['avg_ts'], lpp['stddev_ts'])} | {e['prefill_mean']/lpp['avg_ts']:.2f} "
      f"| {fmt(e['decode_mean'], e['decode_sd'])} | {fmt(ltg['avg_ts'], ltg['stddev_ts'])} | {e['decode_mean']/ltg['avg_ts']:.2f} "
      f"| {e['kernels_per_token']} |")
PY
done
