#!/usr/bin/env bash
# ember's WebGPU backend against llama.cpp on the same GPU, the same
# synthetic GGUF files, in the same run: prefill and decode tok/s of
# `ember bench --backend webgpu` beside llama-bench's on Vulkan
# (bench/llama-bench-vulkan.sh builds it from node-llama-cpp's package)
# and, where LLAMA_CUDA names one, on CUDA; the ratios; and the memory
# bandwidth ember's decode reaches (weight bytes a token x tok/s) against
# a streaming-read kernel over 1 GiB measured in the same run and against
# the datasheet's figure (NOMINAL_GBPS, default the H100 SXM's 3350).
#
#   bench/webgpu.sh                                    # build what is missing, run, print the table
#   EMBER=.devbin/ember LLAMA_VULKAN=.devbin/llama-vulkan/llama-bench RESULTS=/tmp/r.jsonl bench/webgpu.sh
#   bench/webgpu.sh --table /tmp/r.jsonl               # the table from saved results
#
# MODELS lists shape/type pairs; P, N, R are prompt tokens, generated tokens
# and repetitions; DEPTH (0) the context both tools' tests follow (-d: at 0
# both decode from an empty context, as llama-bench's tg does); WORK holds the synthetic files (DROP=1 deletes each after
# its run). llama-bench runs twice a file, before and after ember, and the
# faster run of each test is its figure (both are kept in RESULTS): on the
# H100 its first run of a file has come out at a third of its second, the
# same device and matrix cores (bench/JOURNAL.md, 2026-11-26).
set -euo pipefail
cd "$(dirname "$0")/.."

table() {
  python3 - "$1" "${NOMINAL_GBPS:-3350}" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
nominal = float(sys.argv[2])
def r(a, b):
    return f"{a / b:.2f}" if a and b else "–"
def f(x):
    return f"{x:.1f}" if x else "–"
print("| model | ember pp | Vulkan pp | ratio | CUDA pp | ratio | ember tg | Vulkan tg | ratio | CUDA tg | ratio | kernels/token | ember decode GB/s | of read (GB/s) | of nominal |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for x in rows:
    e = x["ember"]
    v, c = x.get("vulkan", {}), x.get("cuda", {})
    gbs = e["weight_bytes_per_token"] * e["decode_mean"] / 1e9
    read = e.get("read_gbps", 0)
    print(f"| {x['model']} | {f(e['prefill_mean'])} | {f(v.get('pp'))} | {r(e['prefill_mean'], v.get('pp'))} | {f(c.get('pp'))} | {r(e['prefill_mean'], c.get('pp'))} "
          f"| {f(e['decode_mean'])} | {f(v.get('tg'))} | {r(e['decode_mean'], v.get('tg'))} | {f(c.get('tg'))} | {r(e['decode_mean'], c.get('tg'))} "
          f"| {e['kernels_per_token']} | {gbs:.0f} | {100 * gbs / read:.0f}% ({read:.0f}) | {100 * gbs / nominal:.0f}% |")
PY
}

if [ "${1:-}" = "--table" ]; then
  table "$2"
  exit 0
fi

P=${P:-512}
N=${N:-128}
R=${R:-2}
WORK=${WORK:-/tmp/ember-bench}
MODELS=${MODELS:-"llama3.2:1b/Q4_0 youtu-llm:2b/Q4_0 llama3.1:8b/Q4_0 deepseek-v2-lite/Q4_0 glm-4.7-flash/Q4_0"}
EMBER=${EMBER:-}
if [ -z "$EMBER" ]; then
  go build -o bin/ember ./cmd/native
  EMBER=bin/ember
fi
LLAMA_VULKAN=${LLAMA_VULKAN:-out/llama-vulkan/llama-bench}
[ -x "$LLAMA_VULKAN" ] || bench/llama-bench-vulkan.sh "$(dirname "$LLAMA_VULKAN")"
LLAMA_CUDA=${LLAMA_CUDA:-}
RESULTS=${RESULTS:-$(mktemp)}
mkdir -p "$WORK"

# llama-bench's JSON: tok/s of its prompt test and of its generation test.
llama() {
  "$1" -m "$2" -p "$P" -n "$N" -d "${DEPTH:-0}" -r "$R" -ngl 99 -o json 2>/dev/null | python3 -c '
import json, sys
t = {"pp": 0, "tg": 0}
for x in json.load(sys.stdin):
    t["pp" if x["n_prompt"] else "tg"] = x["avg_ts"]
print(json.dumps(t))'
}

# faster is two runs of llama's JSON as one: each test's faster run, and
# both runs.
faster() {
  python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(json.dumps({"pp": max(a["pp"], b["pp"]), "tg": max(a["tg"], b["tg"]), "runs": [a, b]}))' "$1" "$2"
}

for m in $MODELS; do
  shape=${m%/*}; type=${m#*/}
  file="$WORK/${shape//:/-}-$type.gguf"
  [ -f "$file" ] || "$EMBER" synth --shape "$shape" --type "$type" --seed 1 -o "$file" >&2
  v1=$(llama "$LLAMA_VULKAN" "$file")
  c1='{}'
  [ -z "$LLAMA_CUDA" ] || c1=$(llama "$LLAMA_CUDA" "$file")
  e=$("$EMBER" bench --backend webgpu --model "$file" -p "$P" -n "$N" -d "${DEPTH:-0}" -r "$R" --json)
  v=$(faster "$v1" "$(llama "$LLAMA_VULKAN" "$file")")
  c='{}'
  [ -z "$LLAMA_CUDA" ] || c=$(faster "$c1" "$(llama "$LLAMA_CUDA" "$file")")
  echo "{\"model\": \"$m\", \"ember\": $e, \"vulkan\": $v, \"cuda\": $c}" >> "$RESULTS"
  [ -z "${DROP:-}" ] || rm -f "$file"
done
table "$RESULTS"
