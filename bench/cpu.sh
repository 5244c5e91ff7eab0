#!/usr/bin/env bash
# ember vs llama.cpp on the CPU: `ember bench` and llama.cpp's own
# llama-bench on the same synthetic GGUF files, the same machine and the
# same thread counts, each pair measured back to back so the ratios hold on
# a noisy shared machine. Prints a markdown table.
#
#   bench/cpu.sh                                   # the issue's set of models, all cores
#   MODELS="llama3.2:1b/Q4_0" P=64 N=16 R=2 THREADS="1 2" bench/cpu.sh
#   ISA=avx2 bench/cpu.sh                          # both on their AVX2 paths
#   MODELS="../shared/models/stories260K.gguf" bench/cpu.sh   # a file as it is
#   RESULTS=/tmp/r.jsonl bench/cpu.sh; bench/cpu.sh --table /tmp/r.jsonl
#   STAT=max bench/cpu.sh        # best repetition, not the mean (a machine others load)
#   MODELS="deepseek-v2-lite/Q4_0 deepseek-v2-lite/Q4_K_M" bench/cpu.sh   # MoE (9-10 GB files)
#   MODELS="../shared/models/stories260K.gguf qwen3:0.6b/Q8_0" bench/cpu.sh  # per-token overhead
#   DEPTH=512 bench/cpu.sh       # both tests after 512 tokens of context (-d for both)
#
# llama-bench is built from node-llama-cpp's source against its prebuilt
# libraries (go run ./bench/llamatool llama-bench; make deps installs the
# package); it loads the best CPU build of ggml for this machine (zen4 on
# an AVX-512 AMD CPU). ISA=avx2 runs it on its haswell build and ember with
# EMBER_CPU=avx2 (engine/quant: CPU-feature dispatch held to AVX2), as a
# machine without AVX-512 would. On another machine without Go, give the
# binaries: EMBER=path/to/ember LLAMA_BENCH=path/to/llama-bench (a folder
# holding it and its libraries, from llamatool).
#
# Both tools run the same two tests: the prefill of P tokens and the decode
# of N tokens, each from an empty context, or after DEPTH tokens of context
# (-d for both; the table's cells say @DEPTH).
# Extra ember flags go in EMBER_FLAGS, extra llama-bench flags in
# LLAMA_FLAGS. Peak resident memory (GNU time's maximum RSS) is
# shown when /usr/bin/time is installed (Debian package "time").
set -euo pipefail
cd "$(dirname "$0")/.."

table() {
  python3 - "$1" "${STAT:-mean}" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
best = sys.argv[2] == "max"
gb = lambda kib: f"{int(kib)*1024/1e9:.2f} GB" if int(kib) else "-"
P, N = (rows[0]["p"], rows[0]["n"]) if rows else (0, 0)
def stat(mean, sd, samples):
    """The mean and its spread, or with STAT=max the best repetition."""
    return (max(samples), f"{max(samples):.2f}") if best else (mean, f"{mean:.2f} ± {sd:.2f}")
what = "best of each run's repetitions" if best else "mean ± sd"
print(f"| model | type | ISA | threads | ember pp{P} | llama.cpp pp{P} | ratio | ember tg{N} | llama.cpp tg{N} | ratio | kernels/token | ember RSS | llama.cpp RSS |  ({what})")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for x in rows:
    e, l = x["ember"], x["llama"]
    ep, eps = stat(e["prefill_mean"], e["prefill_sd"], e["prefill"])
    lp, lps = stat(l["pp"], l["pp_sd"], l.get("pp_samples", [l["pp"]]))
    et, ets = stat(e["decode_mean"], e["decode_sd"], e["decode"])
    lt, lts = stat(l["tg"], l["tg_sd"], l.get("tg_samples", [l["tg"]]))
    if x.get("depth"):  # DEPTH: both tests after that many tokens of context
        eps, lps, ets, lts = (c + f" @{x['depth']}" for c in (eps, lps, ets, lts))
    print(f"| {x['shape']} | {x['type']} | {x['isa']} | {x['threads']} "
          f"| {eps} | {lps} | {ep/lp:.2f} | {ets} | {lts} | {et/lt:.2f} "
          f"| {e['kernels_per_token']} | {gb(x['ember_rss'])} | {gb(x['llama_rss'])} |")
PY
}

if [ "${1:-}" = "--table" ]; then
  table "$2"
  exit 0
fi

THREADS=${THREADS:-$(nproc)}
P=${P:-128}
N=${N:-32}
R=${R:-3}
WORK=${WORK:-/tmp/ember-bench}
MODELS=${MODELS:-"llama3.2:1b/Q4_0 llama3.2:1b/Q8_0 llama3.2:1b/Q4_K_M qwen3:0.6b/Q8_0"}
ISA=${ISA:-}
mkdir -p "$WORK"
llama_build=
case "$ISA" in
  "") ;;
  avx2) llama_build=haswell; export EMBER_CPU=avx2 ;;
  *) echo "ISA=$ISA: want avx2 or nothing" >&2; exit 2 ;;
esac
EMBER=${EMBER:-}
if [ -z "$EMBER" ]; then
  go build -o bin/ember ./cmd/native
  EMBER=bin/ember
fi
LLAMA_BENCH=${LLAMA_BENCH:-}
if [ -z "$LLAMA_BENCH" ]; then
  make -s deps
  LLAMA_BENCH=$(go run ./bench/llamatool -build "$llama_build" llama-bench)
fi
RESULTS=${RESULTS:-$(mktemp)}

timed() { # timed RSSFILE CMD...: runs CMD, leaving its peak RSS in KiB in RSSFILE
  local out=$1; shift
  if [ -x /usr/bin/time ]; then /usr/bin/time -f %M -o "$out" "$@"; else echo 0 >"$out"; "$@"; fi
}
rss=$(mktemp -d)
trap 'rm -rf "$rss"' EXIT

for m in $MODELS; do
  if [ "${m%.gguf}" != "$m" ]; then # a file of its own
    file=$m; shape=$(basename "$m" .gguf); type=file
  else
    shape=${m%/*}; type=${m#*/}
    file="$WORK/${shape//:/-}-$type.gguf"
    [ -f "$file" ] || "$EMBER" synth --shape "$shape" --type "$type" --seed 1 -o "$file" >&2
  fi
  for t in $THREADS; do
    ej=$(timed "$rss/ember" "$EMBER" bench --backend cpu --model "$file" -p "$P" -n "$N" -d "${DEPTH:-0}" -r "$R" --threads "$t" --json ${EMBER_FLAGS:-} 2>/dev/null)
    lj=$(timed "$rss/llama" "$LLAMA_BENCH" -m "$file" -p "$P" -n "$N" -d "${DEPTH:-0}" -r "$R" -t "$t" -o json ${LLAMA_FLAGS:-} 2>/dev/null)
    python3 - "$shape" "$type" "$t" "${ISA:-best}" "$P" "$N" "$ej" "$lj" "$(cat "$rss/ember")" "$(cat "$rss/llama")" "${DEPTH:-0}" >>"$RESULTS" <<'PY'
import json, sys
shape, typ, threads, isa, p, n, ej, lj, erss, lrss, depth = sys.argv[1:]
e = json.loads(ej)
l = {}
for r in json.loads(lj):
    k = "pp" if r["n_gen"] == 0 else "tg"
    l[k], l[k + "_sd"], l[k + "_samples"] = r["avg_ts"], r["stddev_ts"], r["samples_ts"]
print(json.dumps({"shape": shape, "type": typ, "threads": int(threads), "isa": isa, "p": int(p), "n": int(n),
                  "ember": e, "llama": l, "ember_rss": erss, "llama_rss": lrss,
                  "depth": int(depth)}))
PY
  done
done
table "$RESULTS"
