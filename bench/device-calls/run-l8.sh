#!/usr/bin/env bash
# Session 14, call 8: a batch chain recording the next step before the host waits for the chain (prep, engine/
# batch_schedule.go) against base (7f95338: recorded after the wait), llama3.1:8b Q4_0, ember serve --backend webgpu
# --parallel 64 through bench/serve.sh (greedy, 128 tokens a stream, slots of 256), 1 and 16 streams, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base prep; do xz -dc .dev29/l8/ember-$v.xz > $D/ember-$v; done; xz -dc .dev29/l8/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "8b synth at $SECONDS s"
run() {
  v=$1; n=$2; L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/8b.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 60 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
for r in 1 2; do for n in 1 16; do run base $n; run prep $n; done; done
echo "end at $SECONDS s"
