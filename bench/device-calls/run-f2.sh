#!/usr/bin/env bash
# Session 8, call 2: what one more dispatch costs through wgpu on the H100 (BenchmarkDispatchChains),
# and llama.cpp's own per-op Vulkan times (GGML_VK_PERF_LOGGER) on the GLM, DeepSeek and 8B decode.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/f2/wt.xz > $D/wt.test; xz -dc .dev29/f2/ember.xz > $D/ember; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="glm-4.7-flash deepseek-v2-lite llama3.1:8b"
for s in $M; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
$D/wt.test -test.run XXX -test.benchtime 100x -test.bench 'DispatchChains' 2>&1 | grep Benchmark | awk '{print $1, $3, $5}'
wait
echo "synth at $SECONDS s"
for m in glm-4.7-flash deepseek-v2-lite llama3.1-8b; do
  echo "== $m llama.cpp Vulkan per-op, decode at depth 64"
  GGML_VK_PERF_LOGGER=1 timeout 120 $D/llama-vulkan/llama-bench -m $W/$m.gguf -d 64 -p 0 -n 3 -r 1 -ngl 99 > $OUT/$m-perf.out 2> $OUT/$m-perf.txt
  awk '/^Vulkan Timings:/{blk=""} {blk=blk $0 "\n"} END{printf "%s", blk}' $OUT/$m-perf.txt | grep -v "^llama\|^load\|^print_info\|^ggml" | head -60
  echo "== $m ember classes"
  EMBER_BENCH_MODEL=$W/$m.gguf timeout 100 $D/wt.test -test.run XXX -test.benchtime 40x \
    -test.bench 'DecodeStep/(all|all-queued)$' 2>&1 | grep Benchmark | awk '{print $1, $3}'
done
echo "done at $SECONDS s"
