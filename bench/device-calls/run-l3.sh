#!/usr/bin/env bash
# Session 14, call 3: serving (issue 26), llama3.1:8b Q4_0, greedy, ember serve --backend webgpu --parallel 64 through
# bench/serve.sh (N streams of 128 tokens): base (b8c7750: a batch step's scores pass launched for every row of the
# shared cache) against span (its grid sized to one slot, Graph.Span), alternated by level; slots of 256 positions, then
# 16 streams with slots of 4096 (serve's default --ctx).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base span; do xz -dc .dev29/l3/ember-$v.xz > $D/ember-$v; done; xz -dc .dev29/l3/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "8b synth at $SECONDS s"
run() {
  v=$1; n=$2; c=$3; L=/tmp/logs-$v-$n-$c; mkdir -p $L
  MODEL=$W/8b.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L CTX_EACH=$c \
    timeout -k 10 100 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== $v streams $n ctx $c: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
for n in 1 4 16 64; do run base $n 256; run span $n 256; done
run base 16 4096; run span 16 4096
echo "end at $SECONDS s"
