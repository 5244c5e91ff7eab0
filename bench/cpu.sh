#!/usr/bin/env bash
# ember vs llama.cpp on the CPU: the same synthetic GGUF files, the same
# machine, the same thread count, measured in one run so the ratios hold on a
# noisy shared machine. Prints a markdown table.
#
#   bench/cpu.sh                      # the issue's set of models
#   MODELS="llama3.2:1b/Q4_0" P=64 N=16 R=2 THREADS=2 bench/cpu.sh
#
# llama.cpp is the build node-llama-cpp ships (make deps installs it), run
# through internal/oracle/bench.mjs; ember is `ember bench --json`. Extra
# ember flags go in EMBER_FLAGS (for instance --mmap). Peak resident memory
# (GNU time's maximum RSS) is shown beside the file size when /usr/bin/time
# is installed (Debian package "time").
set -euo pipefail
cd "$(dirname "$0")/.."
THREADS=${THREADS:-$(nproc)}
P=${P:-128}
N=${N:-32}
R=${R:-3}
WORK=${WORK:-/tmp/ember-bench}
MODELS=${MODELS:-"llama3.2:1b/Q4_0 llama3.2:1b/Q8_0 llama3.2:1b/Q4_K_M qwen3:0.6b/Q8_0"}
mkdir -p "$WORK"
make -s deps
go build -o bin/ember ./cmd/native

timed() { # timed RSSFILE CMD...: runs CMD, leaving its peak RSS in KiB in RSSFILE
  local out=$1; shift
  if [ -x /usr/bin/time ]; then /usr/bin/time -f %M -o "$out" "$@"; else echo 0 >"$out"; "$@"; fi
}
rss=$(mktemp -d)
trap 'rm -rf "$rss"' EXIT

echo "| model | type | size | threads | ember pp$P tok/s | llama.cpp pp$P tok/s | ratio | ember tg$N tok/s | llama.cpp tg$N tok/s | ratio | kernels/token | ember peak RSS | llama.cpp peak RSS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for m in $MODELS; do
  shape=${m%/*}; type=${m#*/}
  file="$WORK/${shape//:/-}-$type.gguf"
  [ -f "$file" ] || bin/ember synth --shape "$shape" --type "$type" --seed 1 -o "$file" >&2
  ej=$(timed "$rss/ember" bin/ember bench --model "$file" -p "$P" -n "$N" -r "$R" --threads "$THREADS" --json ${EMBER_FLAGS:-} 2>/dev/null)
  lj=$(timed "$rss/llama" node internal/oracle/bench.mjs "$file" "$P" "$N" "$R" "$THREADS")
  python3 - "$shape" "$type" "$file" "$THREADS" "$ej" "$lj" "$(cat "$rss/ember")" "$(cat "$rss/llama")" <<'PY'
import json, os, statistics as st, sys
shape, typ, path, threads, ej, lj, erss, lrss = sys.argv[1:]
gb = lambda kib: f"{int(kib)*1024/1e9:.2f} GB" if int(kib) else "-"
e = json.loads(ej); l = json.loads(lj)
def ms(xs): return st.mean(xs), (st.stdev(xs) if len(xs) > 1 else 0.0)
lpp, lps = ms(l["prefill"]); ltg, lts = ms(l["decode"])
fmt = lambda m, s: f"{m:.2f} ± {s:.2f}"
print(f"| {shape} | {typ} | {os.path.getsize(path)/1e9:.2f} GB | {threads} "
      f"| {fmt(e['prefill_mean'], e['prefill_sd'])} | {fmt(lpp, lps)} | {e['prefill_mean']/lpp:.2f} "
      f"| {fmt(e['decode_mean'], e['decode_sd'])} | {fmt(ltg, lts)} | {e['decode_mean']/ltg:.2f} "
      f"| {e['kernels_per_token']} | {gb(erss)} | {gb(lrss)} |")
PY
done
