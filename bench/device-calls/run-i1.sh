#!/usr/bin/env bash
# Session 11, call 1: where a 512-token prefill chunk's time goes on the 1B, youtu and the 8B (Q4_0), ember's kernel
# timeline (BenchmarkDecodeStep/timeline, EMBER_BENCH_TOKENS=512) and llama.cpp's per-op Vulkan times
# (GGML_VK_PERF_LOGGER=1 llama-bench -p 512 -n 0) on the same files.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; xz -dc .dev29/i1/wt.xz > $D/webgpu.test; xz -dc .dev29/i1/ember.xz > $D/ember; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b llama3.1:8b; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait; echo "synth at $SECONDS s"
for m in llama3.2-1b youtu-llm-2b llama3.1-8b; do
  echo "== $m ember timeline"
  EMBER_BENCH_MODEL=$W/$m.gguf EMBER_BENCH_TOKENS=512 timeout 120 $D/webgpu.test -test.run XXX -test.benchtime 4x \
    -test.bench 'DecodeStep/timeline' 2>&1 | grep -v "^goos\|^goarch\|^pkg\|^cpu" | head -40
  echo "== $m llama.cpp perf logger"
  GGML_VK_PERF_LOGGER=1 timeout 120 $D/llama-vulkan/llama-bench -m $W/$m.gguf -p 512 -n 0 -r 2 -ngl 99 > $OUT/$m-perf.txt 2>&1
  grep -c . $OUT/$m-perf.txt; tail -5 $OUT/$m-perf.txt
  echo "at $SECONDS s"
done
