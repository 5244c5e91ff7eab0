#!/usr/bin/env bash
# Session 17, call 1 (issue 29): where a 512-token prefill chunk's time goes, kernel by kernel (BenchmarkDecodeStep/timeline at EMBER_BENCH_TOKENS=512)
# on llama3.2:1b Q4_0, llama3.1:8b Q4_0 and Q4_K_M, beside llama.cpp Vulkan's per-op times (GGML_VK_PERF_LOGGER) for the same pp512.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/p1/ember.xz > $D/ember; xz -dc .dev29/p1/webgpu.test.xz > $D/webgpu.test; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in llama3.2:1b llama3.1:8b; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
$D/ember synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/llama3.1-8b-q4km.gguf >/dev/null 2>&1 & P="$P $!"
wait $P
echo "synth at $SECONDS s"
for m in llama3.1-8b llama3.1-8b-q4km llama3.2-1b; do
  echo "== $m ember timeline T=512"
  EMBER_BENCH_MODEL=$W/$m.gguf EMBER_BENCH_TOKENS=512 $D/webgpu.test -test.run XXX -test.bench 'DecodeStep/timeline$' -test.benchtime 3x 2>&1 | head -60
  echo "== $m ember bench: $($D/ember bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 2 2>&1 | tail -3)"
  echo "at $SECONDS s"
  GGML_VK_PERF_LOGGER=1 $D/llama-vulkan/llama-bench -m $W/$m.gguf -p 512 -n 0 -r 1 -ngl 99 > $W/perf-$m.txt 2>&1
  echo "== $m vulkan perf logger: $(wc -l < $W/perf-$m.txt) lines"; tail -45 $W/perf-$m.txt
  echo "at $SECONDS s"
done
echo "end at $SECONDS s"
