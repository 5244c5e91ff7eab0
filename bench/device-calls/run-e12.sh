#!/usr/bin/env bash
# Session 7, call 12: profiles at fafbcf4: GLM-4.7-Flash's 512-token prefill chunk by kernel, and the 8B's batch step
# of 16 sequences by kernel (BenchmarkDecodeStep, EMBER_BENCH_TOKENS=512 / EMBER_BENCH_BATCH=16).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; xz -dc .dev29/e12/wt-head.xz > $D/webgpu.test; xz -dc .dev29/e12/ember.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1 &
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1 &
wait; echo "synth at $SECONDS s"
echo "== glm prefill 512"
EMBER_BENCH_MODEL=$W/glm.gguf EMBER_BENCH_TOKENS=512 timeout 200 $D/webgpu.test -test.run XXX -test.benchtime 5x \
  -test.bench 'DecodeStep/(all$|only-)' 2>&1 | grep Benchmark | awk '{print $1, $3, $9}'
echo "at $SECONDS s"
echo "== 8b batch 16"
EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=16 timeout 150 $D/webgpu.test -test.run XXX -test.benchtime 20x \
  -test.bench 'DecodeStep/(all$|only-|without-)' 2>&1 | grep Benchmark | awk '{print $1, $3, $9}'
echo "at $SECONDS s"
