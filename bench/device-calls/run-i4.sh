#!/usr/bin/env bash
# Session 11, call 4: quantize_packed and rmsnorm_packed eight values a thread, four threads a 32-value run (pk) against
# fb08ce9 (base, a run of 32 a thread); `ember bench --backend webgpu -p 512 -n 4 -r 2`, alternated twice on five
# files; then pk's 512-token timeline of the 1B (BenchmarkDecodeStep/timeline, EMBER_BENCH_TOKENS=512).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base pk; do xz -dc .dev29/i4/ember-$v.xz > $D/ember-$v; done; xz -dc .dev29/i4/wt-pk.xz > $D/wt.test; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait
for s in llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
echo "small synth at $SECONDS s"
pp() { $D/ember-$2 bench --backend webgpu --model $W/$1.gguf -p 512 -n 4 -r 2 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1))'; }
for m in llama3.2-1b youtu-llm-2b; do
  for r in 1 2; do for v in base pk; do echo "== $m $v $(pp $m $v)"; done; done
done
echo "== 1b pk timeline"
EMBER_BENCH_MODEL=$W/llama3.2-1b.gguf EMBER_BENCH_TOKENS=512 timeout 60 $D/wt.test -test.run XXX -test.benchtime 4x \
  -test.bench 'DecodeStep/timeline' 2>&1 | grep "timeline of\|_packed\|matmul_tiled"
wait
echo "synth at $SECONDS s"
for m in llama3.1-8b deepseek-v2-lite glm-4.7-flash; do
  for r in 1 2; do for v in base pk; do echo "== $m $v $(pp $m $v)"; done; done
  echo "at $SECONDS s"
done
