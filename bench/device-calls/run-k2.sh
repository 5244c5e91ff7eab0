#!/usr/bin/env bash
# Session 13, call 2: where GLM's and DeepSeek's decode step goes at position 64 (ember 2b5pipe build, BenchmarkDecodeStep:
# all, all-queued, without-NAME for every kernel file, and the timeline), beside llama.cpp Vulkan's per-op times (GGML_VK_PERF_LOGGER, depth 64).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/k2/webgpu.test.xz > $D/wt.test; xz -dc .dev29/k2/ember.xz > $D/ember; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in glm-4.7-flash deepseek-v2-lite; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait
echo "synth at $SECONDS s"
for m in deepseek-v2-lite glm-4.7-flash; do
  echo "== $m ember classes"
  EMBER_BENCH_MODEL=$W/$m.gguf timeout 200 $D/wt.test -test.run XXX -test.benchtime 40x \
    -test.bench 'DecodeStep/(all|all-queued|without-.*|only-.*)$' 2>&1 | grep Benchmark | awk '{print $1, $3}'
  EMBER_BENCH_MODEL=$W/$m.gguf timeout 100 $D/wt.test -test.run XXX -test.benchtime 10x \
    -test.bench 'DecodeStep/timeline$' 2>&1 | grep -v "^goos\|^goarch\|^pkg\|^cpu\|^PASS\|^ok"
  echo "at $SECONDS s"
  echo "== $m llama.cpp Vulkan per-op, decode at depth 64"
  GGML_VK_PERF_LOGGER=1 timeout 120 $D/llama-vulkan/llama-bench -m $W/$m.gguf -d 64 -p 0 -n 3 -r 1 -ngl 99 > $OUT/$m-perf.out 2> $OUT/$m-perf.txt
  awk '/^Vulkan Timings:/{blk=""} {blk=blk $0 "\n"} END{printf "%s", blk}' $OUT/$m-perf.txt | grep -v "^llama\|^load\|^print_info\|^ggml" | head -60
  grep "tg3" $OUT/$m-perf.out
  echo "at $SECONDS s"
done
