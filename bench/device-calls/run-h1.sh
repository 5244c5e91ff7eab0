#!/usr/bin/env bash
# Session 10, call 1: the batch step (EMBER_BENCH_BATCH=16 and 8, position 64) of the 8B Q4_0, base (b514caf,
# matmul_tokens 4 tokens a workgroup) against t8 (8 tokens a workgroup), alternated twice; base's and t8's per-kernel
# timeline at 16; llama-bench's Vulkan device line (matrix cores) beside its pp512 on the same 8B file.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in wt-base wt-t8; do xz -dc .dev29/h1/$v.xz > $D/$v.test; done; xz -dc .dev29/h1/ember.xz > $D/ember; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
for r in 1 2; do
  $D/llama-vulkan/llama-bench -m $W/8b.gguf -p 512 -n 0 -r 1 -ngl 99 2>&1 | grep -i "ggml_vulkan\|pp512"
done
echo "llama at $SECONDS s"
for B in 16 8; do
  for r in 1 2; do
    for v in base t8; do
      echo "== B=$B $v"
      EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=$B timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 40x \
        -test.bench 'DecodeStep/(all-queued|products|no-products)$' 2>&1 | grep "^Benchmark" | awk '{print $1, $3, $4}'
    done
  done
  echo "at $SECONDS s"
done
for v in base t8; do
  echo "== timeline B=16 $v"
  EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=16 timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
    -test.bench 'DecodeStep/timeline$' 2>&1 | grep -v "^goos\|^goarch\|^pkg\|^cpu\|^Benchmark\|^PASS\|^ok" | head -24
done
echo "end at $SECONDS s"
