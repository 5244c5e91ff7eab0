#!/usr/bin/env bash
# Session 7, call 4: decode-step profiles of GLM-4.7-Flash and DeepSeek-V2-Lite (Q4_0) by kernel, webgpu.test at eaea375.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/webgpu-main.test.xz > $D/webgpu.test; xz -dc .dev29/ember-lc.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="glm-4.7-flash deepseek-v2-lite"
for s in $M; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/$s.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
for s in $M; do
  echo "== $s"
  EMBER_BENCH_MODEL=$W/$s.gguf timeout 200 $D/webgpu.test -test.run XXX -test.benchtime 40x \
    -test.bench 'DecodeStep/' 2>&1 | grep Benchmark | awk '{print $1, $3, $7, $9}'
  echo "at $SECONDS s"
done
