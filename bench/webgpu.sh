#!/usr/bin/env bash
# ember's WebGPU backend on a GPU: prefill and decode tok/s, ms per token,
# kernels per token (also divided by the layer count, which counts the few
# kernels outside the layers too: embedding, final norm, output, sampling),
# and the fraction of the device's memory bandwidth the decode reaches
# (weight bytes per token x tok/s over the bandwidth of a large buffer
# copy, measured in the same run).
#
#   bench/webgpu.sh                         # build, run the issue's models, print a table
#   EMBER=.devbin/ember RESULTS=/tmp/r.jsonl bench/webgpu.sh
#                                           # on a machine without Go (results kept as JSON lines)
#   bench/webgpu.sh --table /tmp/r.jsonl    # the table from saved results
#
# MODELS lists shape/type pairs; P, N, R are prompt tokens, generated tokens
# and repetitions; WORK holds the synthetic GGUF files (DROP=1 deletes each
# after its run).
set -euo pipefail
cd "$(dirname "$0")/.."

table() {
  python3 - "$1" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print("| model | type | pp tok/s | tg tok/s | ms/token | kernels/token | kernels/token ÷ layers | weight MB/token | GB/s | copy GB/s | fraction of bandwidth |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    gbs = r["weight_bytes_per_token"] * r["decode_mean"] / 1e9
    frac = gbs / r["copy_gbps"] if r["copy_gbps"] else float("nan")
    print(f"| {r['shape']} | {r['type']} | {r['prefill_mean']:.1f} ± {r['prefill_sd']:.1f} | {r['decode_mean']:.1f} ± {r['decode_sd']:.1f} "
          f"| {1000 / r['decode_mean']:.2f} | {r['kernels_per_token']} | {r['kernels_per_token'] / r['layers']:.1f} "
          f"| {r['weight_bytes_per_token'] / 1e6:.0f} | {gbs:.0f} | {r['copy_gbps']:.0f} | {100 * frac:.0f}% |")
PY
}

if [ "${1:-}" = "--table" ]; then
  table "$2"
  exit 0
fi

P=${P:-128}
N=${N:-64}
R=${R:-3}
WORK=${WORK:-/tmp/ember-bench}
MODELS=${MODELS:-"llama3.2:1b/Q4_0 qwen3:0.6b/Q8_0 llama3.1:8b/Q4_K_M qwen3:30b-a3b/Q4_K_M glm-4.7-flash/Q4_0"}
EMBER=${EMBER:-}
if [ -z "$EMBER" ]; then
  go build -o bin/ember ./cmd/native
  EMBER=bin/ember
fi
RESULTS=${RESULTS:-$(mktemp)}
mkdir -p "$WORK"
for m in $MODELS; do
  shape=${m%/*}; type=${m#*/}
  file="$WORK/${shape//:/-}-$type.gguf"
  [ -f "$file" ] || "$EMBER" synth --shape "$shape" --type "$type" --seed 1 -o "$file" >&2
  j=$("$EMBER" bench --backend webgpu --model "$file" -p "$P" -n "$N" -r "$R" --json)
  echo "{\"shape\": \"$shape\", \"type\": \"$type\", ${j#\{}" >> "$RESULTS"
  # DROP=1 removes each file after its run (a small disk).
  [ -z "${DROP:-}" ] || rm -f "$file"
done
if command -v python3 >/dev/null; then table "$RESULTS"; else cat "$RESULTS"; fi
