# Sourced by a device call's script (bench/device-calls/run-*.sh) from the
# repository root: the Vulkan loader from the carried Debian packages
# (.gl, which the lent machine lacks) and NVIDIA's ICD, then helpers.
#
#   . bench/device-calls/setup.sh
#   models 40 glm=glm-4.7-flash/Q4_0 8b=llama3.1:8b/Q4_0   # $W/glm.gguf, $W/8b.gguf
#   batch_step base 16; serve_streams base 8b "16 64"     # builds in $D
#
# models writes synthetic models side by side with the ember binary in
# $EMBER (default /tmp/d/ember) and waits for them all. It writes them to
# /dev/shm when that has room for the GB its first argument names and 16
# more: the device's disk took 40-140 s a call for these files at about
# 250 MB/s, where writing them is about 15 s of work on its 16 cores
# (2026-11-28 journal). Else to /tmp/m. $W is where they went.
for f in .gl/*.deb; do dpkg -x "$f" / ; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json

models() {
  local need=$1; shift
  local avail
  avail=$(df -BG --output=avail /dev/shm 2>/dev/null | tail -1 | tr -dc 0-9)
  if [ -n "$avail" ] && [ "$avail" -ge $((need + 16)) ]; then W=/dev/shm/m; else W=/tmp/m; fi
  mkdir -p "$W"
  local t0=$SECONDS pids=() spec name shape type
  for spec in "$@"; do
    name=${spec%%=*}; shape=${spec#*=}; type=${shape##*/}; shape=${shape%/*}
    "${EMBER:-/tmp/d/ember}" synth --shape "$shape" --type "$type" --seed 1 -o "$W/$name.gguf" >/dev/null 2>&1 &
    pids+=($!)
  done
  local p rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  echo "models: $* in $W (/dev/shm had ${avail:-?} GB free), $((SECONDS - t0)) s"
  return $rc
}

# batch_step BUILD N [MODEL] prints a queued decode batch step of N
# sequences in ms: webgpu-BUILD.test from $D on $W/MODEL.gguf (default
# 8b), 40 steps. A build's first run in a call reads high; time it once
# before the runs that count.
batch_step() {
  EMBER_BENCH_MODEL="$W/${3:-8b}.gguf" EMBER_BENCH_BATCH="$2" "$D/webgpu-$1.test" -test.run '^$' \
    -test.bench 'DecodeStep/all-queued$' -test.benchtime 40x 2>&1 | awk '/ns\/op/ {printf "%.2f ms", $3 / 1e6}'
}

# serve_streams BUILD MODEL "STREAMS" runs bench/serve.sh with ember-BUILD
# from $D on $W/MODEL.gguf (greedy, 64-token prompts, 128 tokens a
# stream, WebGPU) and prints its table's rows, aggregate tok/s a level.
serve_streams() {
  local L="$OUT/serve-$1-$2-$SECONDS"
  mkdir -p "$L"
  MODEL="$W/$2.gguf" EMBER="$D/ember-$1" LOADGEN="$D/loadgen" SERVERS=ember STREAMS="$3" P=64 N=128 R=1 TEMP=0 \
    BACKEND=webgpu NGL=99 THREADS=16 LOGS="$L" timeout -k 10 150 bash bench/serve.sh > "$L/table.md" 2> "$L/serve.err"
  echo "== serve $1 $2 at $SECONDS s"
  grep '^| [0-9]' "$L/table.md"
  tail -1 "$L/serve.err"
  rm -rf "$L"
}
