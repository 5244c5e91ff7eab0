#!/usr/bin/env bash
# Session 14, call 1: where a serving batch's time goes (issue 26), llama3.1:8b Q4_0, greedy: ember serve --backend webgpu
# --parallel 64 through bench/serve.sh (N streams of 128 tokens), a build logging each scheduler iteration (RUN: sequences,
# chained steps, wait before, runDecode's time; CHUNK: a prefill chunk), beside the lone bench.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/l1/ember.xz > $D/ember; xz -dc .dev29/l1/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "8b synth at $SECONDS s"
$D/ember bench --model $W/8b.gguf --backend webgpu -p 16 -n 128 -r 2 2>&1 | tail -3
for n in 1 16 64; do
  L=$OUT/logs-$n; mkdir -p $L
  MODEL=$W/8b.gguf EMBER=$D/ember LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 120 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
  grep '^RUN' $L/ember-serve.log | awk '{split($2,a,"=");split($3,b,"=");split($4,c,"=");split($5,d,"="); n++; st+=b[2]; tok+=a[2]*b[2]; w+=c[2]; dec+=d[2]} END {printf "runs %d steps %d tokens %d wait %.1f ms dec %.1f ms; per step %.2f ms\n", n, st, tok, w, dec, dec/st}'
  grep '^CHUNK' $L/ember-serve.log | awk '{n++; split($4,d,"="); s+=d[2]} END {printf "chunks %d, %.1f ms\n", n, s}'
done
echo "end at $SECONDS s"
