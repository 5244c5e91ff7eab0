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
# both decode from an empty context, as llama-bench's tg does); WORK holds
# the synthetic files (DROP=1 deletes each after its run). Each file runs
# ROUNDS (3) rounds; a round runs each tool's prefill test and its decode
# test as invocations of their own (llama-bench -p P -n 0, then -p 0 -n N;
# ember bench -p P -n 1, then -p 16 -n N), the tool that goes first
# swapped from round to round, and a test's figure is the median of its
# rounds (every run is kept in RESULTS). On the H100, llama-bench's first
# run of a file has come out at a third of its later ones (idle clocks),
# and its decode right after its own prefill test slower than alone
# (bench/JOURNAL.md, 2026-11-26 and the twentieth session): neither tool
# gets the warm slot every round, and neither decodes behind a prefill.
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

ROUNDS=${ROUNDS:-3}

# llama prints llama-bench's tok/s for one test: pp (prompt only) or tg
# (generation only).
llama() {
  local args=(-p "$P" -n 0)
  [ "$3" = pp ] || args=(-p 0 -n "$N")
  "$1" -m "$2" "${args[@]}" -d "${DEPTH:-0}" -r "$R" -ngl 99 -o json 2>/dev/null |
    python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["avg_ts"])'
}

# ember prints ember bench's JSON for one test: pp (its prefill_mean is
# the figure) or tg (decode_mean, after a 16-token prompt).
ember() {
  local args=(-p "$P" -n 1)
  [ "$2" = pp ] || args=(-p 16 -n "$N")
  "$EMBER" bench --backend webgpu --model "$1" "${args[@]}" -d "${DEPTH:-0}" -r "$R" --json | tail -1
}

# round runs one round of every tool on file $1, ember first when $2 is 1,
# and prints its line of results.
round() {
  local e_pp e_tg v_pp v_tg c_pp=0 c_tg=0
  if [ "$2" = 1 ]; then
    e_pp=$(ember "$1" pp); e_tg=$(ember "$1" tg)
  fi
  v_pp=$(llama "$LLAMA_VULKAN" "$1" pp); v_tg=$(llama "$LLAMA_VULKAN" "$1" tg)
  if [ -n "$LLAMA_CUDA" ]; then
    c_pp=$(llama "$LLAMA_CUDA" "$1" pp); c_tg=$(llama "$LLAMA_CUDA" "$1" tg)
  fi
  if [ "$2" != 1 ]; then
    e_pp=$(ember "$1" pp); e_tg=$(ember "$1" tg)
  fi
  echo "{\"ember_pp\": $e_pp, \"ember_tg\": $e_tg, \"vulkan\": {\"pp\": $v_pp, \"tg\": $v_tg}, \"cuda\": {\"pp\": $c_pp, \"tg\": $c_tg}}"
}

# medians folds a file's rounds (one JSON line each on stdin) into its
# RESULTS line: each tool's median of each test, and every round.
medians() {
  python3 -c '
import json, statistics, sys
rounds = [json.loads(l) for l in sys.stdin if l.strip()]
med = lambda xs: statistics.median(xs) if all(xs) else 0
e = dict(rounds[-1]["ember_tg"])
e["prefill_mean"] = med([r["ember_pp"]["prefill_mean"] for r in rounds])
e["decode_mean"] = med([r["ember_tg"]["decode_mean"] for r in rounds])
out = {"model": sys.argv[1], "ember": e, "rounds": rounds}
for tool in ("vulkan", "cuda"):
    t = {k: med([r[tool][k] for r in rounds]) for k in ("pp", "tg")}
    out[tool] = t if t["pp"] else {}
print(json.dumps(out))' "$1"
}

for m in $MODELS; do
  shape=${m%/*}; type=${m#*/}
  file="$WORK/${shape//:/-}-$type.gguf"
  [ -f "$file" ] || "$EMBER" synth --shape "$shape" --type "$type" --seed 1 -o "$file" >&2
  for r in $(seq 1 "$ROUNDS"); do
    round "$file" $((r % 2 == 0))
  done | medians "$m" >> "$RESULTS"
  [ -z "${DROP:-}" ] || rm -f "$file"
done
table "$RESULTS"
