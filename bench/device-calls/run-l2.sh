#!/usr/bin/env bash
# Session 14, call 2: the batch step of 16 sequences (llama3.1:8b Q4_0) timed by BenchmarkDecodeStep (queued, a slot of
# 66 rows and of 256 as serve --ctx 256 makes) beside serving at 16 streams with each chain's host time (encoding and
# submitting its steps) and read time (waiting for the device) logged.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/l2/ember.xz > $D/ember; xz -dc .dev29/l2/loadgen.xz > $D/loadgen; xz -dc .dev29/l2/wt.test.xz > $D/wt.test; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "8b synth at $SECONDS s"
for c in "" 256; do
  EMBER_BENCH_CTX=$c EMBER_BENCH_BATCH=16 EMBER_BENCH_MODEL=$W/8b.gguf timeout 100 $D/wt.test -test.run XXX -test.benchtime 40x \
    -test.bench 'DecodeStep/(all|all-queued|products|no-products|no-attention)$' 2>&1 | grep Benchmark | awk -v c="ctx=$c" '{print c, $1, $3, $4}'
done
EMBER_BENCH_CTX=256 EMBER_BENCH_BATCH=16 EMBER_BENCH_MODEL=$W/8b.gguf timeout 100 $D/wt.test -test.run XXX -test.benchtime 10x \
    -test.bench 'DecodeStep/timeline$' > $OUT/timeline16.txt 2>&1
head -12 $OUT/timeline16.txt
echo "bench at $SECONDS s"
L=$OUT/logs-16; mkdir -p $L
MODEL=$W/8b.gguf EMBER=$D/ember LOADGEN=$D/loadgen SERVERS=ember STREAMS="16" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
  timeout -k 10 120 bash bench/serve.sh > $L/table.md 2> $L/serve.err
echo "== streams 16: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
grep '^CHAIN' $L/ember-serve.log | tail -8
rm -f $L/level.json $L/loadgen.err $L/serve.err $L/ember.json
echo "end at $SECONDS s"
