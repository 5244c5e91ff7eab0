#!/usr/bin/env bash
# Session 8, call 4: ember's decode step timed kernel by kernel on the device (BenchmarkDecodeStep/timeline:
# timestamps between kernels, as GGML_VK_PERF_LOGGER does for llama.cpp), GLM, DeepSeek, youtu, 8B (Q4_0);
# and llama.cpp's per-op times for youtu.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/f4/wt.xz > $D/wt.test; xz -dc .dev29/f4/ember.xz > $D/ember; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="glm-4.7-flash deepseek-v2-lite youtu-llm:2b llama3.1:8b"
for s in $M; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait
echo "synth at $SECONDS s"
for m in glm-4.7-flash deepseek-v2-lite youtu-llm-2b llama3.1-8b; do
  echo "== $m"
  EMBER_BENCH_MODEL=$W/$m.gguf timeout 120 $D/wt.test -test.run XXX -test.benchtime 20x \
    -test.bench 'DecodeStep/(timeline|all-queued)$' 2>&1 | grep -v "^goos\|^goarch\|^pkg\|^cpu\|^PASS"
done
m=youtu-llm-2b
echo "== $m llama.cpp Vulkan per-op, decode at depth 64"
GGML_VK_PERF_LOGGER=1 timeout 120 $D/llama-vulkan/llama-bench -m $W/$m.gguf -d 64 -p 0 -n 3 -r 1 -ngl 99 > $OUT/$m-perf.out 2> $OUT/$m-perf.txt
awk '/^Vulkan Timings:/{blk=""} {blk=blk $0 "\n"} END{printf "%s", blk}' $OUT/$m-perf.txt | head -60
echo "done at $SECONDS s"
