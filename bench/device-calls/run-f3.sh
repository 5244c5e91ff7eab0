#!/usr/bin/env bash
# Session 8, call 3: each kernel shape's cost inside the decode step's chain (BenchmarkDecodeStep twice-*:
# the step with that shape's kernels dispatched twice, queued), GLM-4.7-Flash, DeepSeek-V2-Lite, youtu, 8B (Q4_0).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/f3/wt.xz > $D/wt.test; xz -dc .dev29/f3/ember.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="glm-4.7-flash deepseek-v2-lite youtu-llm:2b llama3.1:8b"
for s in $M; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait
echo "synth at $SECONDS s"
for m in glm-4.7-flash deepseek-v2-lite youtu-llm-2b llama3.1-8b; do
  echo "== $m"
  EMBER_BENCH_MODEL=$W/$m.gguf timeout 120 $D/wt.test -test.run XXX -test.benchtime 60x \
    -test.bench 'DecodeStep/(all-queued|twice-.*)$' 2>&1 | grep Benchmark | awk '{print $1, $3, $9}'
done
echo "done at $SECONDS s"
