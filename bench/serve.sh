#!/usr/bin/env bash
# Serving throughput: ember serve --parallel P and llama.cpp's llama-server
# -np P on the same GGUF file, loaded by bench/loadgen at each level of
# concurrent streams (streamed raw completions of a short prompt, N tokens
# each, ignore_eos, temperature 0 or TEMP), one server at a time. Prints a
# Markdown table of aggregate tokens/s (all streams' generated tokens over
# the level's wall time, prefill included), its multiple of one stream's,
# and the median time per output token.
#
#   MODEL=m.gguf bench/serve.sh
#   MODEL=m.gguf STREAMS="1 4 16 64" P=64 N=128 BACKEND=webgpu NGL=99 bench/serve.sh
#   MODEL=m.gguf TEMP=0.8 bench/serve.sh     (sampled streams)
#
# EMBER (default bin/ember) and LOADGEN (default: go run ./bench/loadgen)
# name the binaries; LLAMA_SERVER (bench/llama-server-build.sh builds it)
# adds llama-server's columns. THREADS is both servers' CPU threads
# (default: every core); CTX_EACH each slot's context (default 256: ember's
# --ctx is a session's, llama-server's -c all slots'). SERVERS="ember" or
# "llama" runs one of the two (SERVERS= none: the table alone); the table
# shows every server whose results are in $LOGS (default /tmp), beside
# each server's log.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${MODEL:?MODEL=path/to/model.gguf}"
STREAMS=${STREAMS:-"1 4 16"}; N=${N:-64}; BACKEND=${BACKEND:-cpu}; NGL=${NGL:-0}; TEMP=${TEMP:-0}
THREADS=${THREADS:-$(nproc)}; R=${R:-1}; LOGS=${LOGS:-/tmp}; CTX_EACH=${CTX_EACH:-256}
max=0; for s in $STREAMS; do [ "$s" -gt "$max" ] && max=$s; done
P=${P:-$max}
EMBER=${EMBER:-bin/ember}
if [ -n "${LOADGEN:-}" ]; then loadgen=("$LOADGEN"); else loadgen=(go run ./bench/loadgen); fi

# free_port asks the kernel for a port nobody listens on.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# wait_ready polls URL until it answers 200 (a loaded model) or the server
# exits.
wait_ready() {
  for _ in $(seq 1 600); do
    python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5)' "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "server exited: see $3" >&2; return 1; }
    sleep 0.5
  done
  echo "server not ready after 300 s: see $3" >&2; return 1
}

# load runs loadgen on the server at $1 at each level, R requests a
# stream, a JSON list of the levels into $2. Each level runs first with 8
# tokens a request, unmeasured: a server that compiles a step a batch size
# on first use (ember's buckets, on a GPU) does so there.
load() {
  local warm=true first=1
  for s in $STREAMS; do
    gen "$1" -streams "$s" -requests "$s" -max-tokens 8 -warmup=$warm > /dev/null
    warm=false
  done
  echo "[" > "$2"
  for s in $STREAMS; do
    [ $first = 1 ] || echo "," >> "$2"
    gen "$1" -streams "$s" -requests $((s * R)) -max-tokens "$N" -warmup=false > "$LOGS/level.json"
    sed '1d;$d' "$LOGS/level.json" >> "$2"
    first=0
  done
  echo "]" >> "$2"
}

# gen runs loadgen on the server at $1 with the other arguments, in the
# background and waited for: a TERM (a timeout) then ends the script at
# once, and its EXIT trap stops loadgen and the server.
gen() {
  local url=$1; shift
  "${loadgen[@]}" -url "$url" -prompt "Once upon a time there was" -temperature "$TEMP" -json "$@" 2>>"$LOGS/loadgen.err" &
  wait $!
}

# run_ember and run_llama start a server, load it, stop it.
run_ember() {
  local port; port=$(free_port)
  "$EMBER" serve --model "$MODEL" --addr "127.0.0.1:$port" --parallel "$P" --backend "$BACKEND" \
    --threads "$THREADS" --ctx "$CTX_EACH" $EMBER_FLAGS >"$LOGS/ember-serve.log" 2>&1 &
  local pid=$!
  wait_ready "http://127.0.0.1:$port/ready" $pid "$LOGS/ember-serve.log"
  load "http://127.0.0.1:$port" "$LOGS/ember.json"
  kill $pid; wait $pid 2>/dev/null || true
}
run_llama() {
  local port; port=$(free_port)
  "$LLAMA_SERVER" -m "$MODEL" --host 127.0.0.1 --port "$port" -np "$P" -c $((CTX_EACH * P)) -ngl "$NGL" \
    -t "$THREADS" --no-warmup $LLAMA_FLAGS >"$LOGS/llama-server.log" 2>&1 &
  local pid=$!
  wait_ready "http://127.0.0.1:$port/health" $pid "$LOGS/llama-server.log"
  load "http://127.0.0.1:$port" "$LOGS/llama.json"
  kill $pid; wait $pid 2>/dev/null || true
}
EMBER_FLAGS=${EMBER_FLAGS:-}; LLAMA_FLAGS=${LLAMA_FLAGS:-}
# A server still running when the script ends (an error, a timeout's
# TERM) is stopped with it, and waited for (llama-server finishes its
# shutdown first).
trap 'for p in $(jobs -p); do kill $p 2>/dev/null; done; wait' EXIT
trap 'exit 143' TERM
SERVERS=${SERVERS-ember${LLAMA_SERVER:+ llama}}
for s in $SERVERS; do
  rm -f "$LOGS/$s.json"
  run_$s
done

python3 - "$LOGS/ember.json" "$LOGS/llama.json" "$MODEL" "$N" "$P" <<'PY'
import json, os, sys
def read(p):
    """The levels in p; a list cut short (a timeout) ends at its last whole level."""
    if not os.path.exists(p):
        return {}
    text = open(p).read().rstrip()
    try:
        levels = json.loads(text)
    except ValueError:
        try:
            levels = json.loads(text.rstrip(",") + "]")
        except ValueError:
            levels = []
    return {l["streams"]: l for l in levels}
e, l = read(sys.argv[1]), read(sys.argv[2])
print(f"{os.path.basename(sys.argv[3])}: {sys.argv[4]} tokens a request, {sys.argv[5]} slots")
if not e and not l:
    sys.exit(print("no level finished"))
cols = (["ember tok/s", "x1"] if e else []) + (["llama-server tok/s", "x1"] if l else []) + (["ember / llama"] if e and l else [])
print("| streams | " + " | ".join(cols) + " |")
print("|---|" + "---|" * len(cols))
def cells(d, s):
    if s not in d: return ["-", "-"]
    x = d[s]; c = [f"{x['tokens_per_second']:.1f}", f"{x['tokens_per_second'] / d[min(d)]['tokens_per_second']:.2f}"]
    if x["errors"]: c[0] += f" ({x['errors']} errors: {x.get('first_error', '')})"
    return c
for s in sorted(set(e) | set(l)):
    row = (cells(e, s) if e else []) + (cells(l, s) if l else [])
    if e and l:
        row.append(f"{e[s]['tokens_per_second'] / l[s]['tokens_per_second']:.2f}" if s in e and s in l else "-")
    print(f"| {s} | " + " | ".join(row) + " |")
PY
