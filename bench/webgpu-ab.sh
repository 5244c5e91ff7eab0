#!/usr/bin/env bash
# Two ember builds on the same synthetic files, the same GPU, in one run:
# `ember bench --backend webgpu` of each, interleaved model by model and
# repetition by repetition (a shared GPU drifts), and a table of both
# with the ratio B/A. For a change's before and after.
#
#   A=.devbin/ember-old B=.devbin/ember-new bench/webgpu-ab.sh
#
# MODELS lists shape/type pairs (bench/webgpu.sh's), P, N, R prompt and
# generated tokens and rounds (each round runs A then B once), WORK the
# folder of the synthetic files (written by B's synth).
set -euo pipefail
cd "$(dirname "$0")/.."
A=${A:?A is the first ember binary}
B=${B:?B is the second ember binary}
P=${P:-512}
N=${N:-64}
R=${R:-2}
WORK=${WORK:-/tmp/ember-bench}
MODELS=${MODELS:-"llama3.2:1b/Q4_0 qwen3:0.6b/Q8_0 llama3.1:8b/Q4_K_M glm-4.7-flash/Q4_0"}
mkdir -p "$WORK"
RESULTS=$(mktemp)
for m in $MODELS; do
  shape=${m%/*}; type=${m#*/}
  file="$WORK/${shape//:/-}-$type.gguf"
  [ -f "$file" ] || "$B" synth --shape "$shape" --type "$type" --seed 1 -o "$file" >&2
  for r in $(seq "$R"); do
    for side in A B; do
      bin=$A; [ "$side" = B ] && bin=$B
      j=$("$bin" bench --backend webgpu --model "$file" -p "$P" -n "$N" -r 1 --json)
      echo "{\"model\": \"$m\", \"side\": \"$side\", ${j#\{}" >> "$RESULTS"
    done
  done
done
python3 - "$RESULTS" <<'PY'
import json, sys, statistics as st
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
models = list(dict.fromkeys(r["model"] for r in rows))
print("| model | A pp | B pp | B/A pp | A tg | B tg | B/A tg | A kernels/token | B kernels/token |")
print("|---|---|---|---|---|---|---|---|---|")
for m in models:
    a = [r for r in rows if r["model"] == m and r["side"] == "A"]
    b = [r for r in rows if r["model"] == m and r["side"] == "B"]
    ap, bp = st.mean(r["prefill_mean"] for r in a), st.mean(r["prefill_mean"] for r in b)
    at, bt = st.mean(r["decode_mean"] for r in a), st.mean(r["decode_mean"] for r in b)
    print(f"| {m} | {ap:.1f} | {bp:.1f} | {bp/ap:.3f} | {at:.1f} | {bt:.1f} | {bt/at:.3f} | {a[0]['kernels_per_token']} | {b[0]['kernels_per_token']} |")
PY
