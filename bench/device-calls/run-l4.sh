#!/usr/bin/env bash
# Session 14, call 4: the scores pass split over a fixed number of workgroups a score row (scoreSpread) rather than one a
# chunk of the context the cache allows. span (d95c49c) against spread, llama3.1:8b Q4_0: lone decode (ember bench -p 16
# -n 128 -r 2, its context p+n+1 and --ctx 4096), then serving (bench/serve.sh, greedy, 128 tokens a stream) at 16 and 64
# streams with slots of 256 and 4096 positions; alternated.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in span spread; do xz -dc .dev29/l4/ember-$v.xz > $D/ember-$v; done; xz -dc .dev29/l4/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-span synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "8b synth at $SECONDS s"
for r in 1 2; do for v in span spread; do for c in "" 4096; do
  echo "$v ctx=${c:-641}: $($D/ember-$v bench --model $W/8b.gguf --backend webgpu -p 16 -n 128 -r 2 ${c:+-ctx $c} 2>&1 | grep tg128 | awk '{print $(NF-5), $(NF-4), $(NF-3)}')"
done; done; done
echo "bench at $SECONDS s"
run() {
  v=$1; n=$2; c=$3; L=/tmp/logs-$v-$n-$c; mkdir -p $L
  MODEL=$W/8b.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L CTX_EACH=$c \
    timeout -k 10 100 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== $v streams $n ctx $c: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
for c in 256 4096; do for n in 16 64; do run span $n $c; run spread $n $c; done; done
echo "end at $SECONDS s"
