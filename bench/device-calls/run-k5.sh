#!/usr/bin/env bash
# Session 13, call 5: the candidates' top-k in two passes (chunks of about 4096 values, then their candidates) against one
# workgroup a row (base = c78c764); `ember bench --backend webgpu -p 16 -n 128 -r 2 -temp 0.8`, alternated twice; the 8B's
# candidates step (BenchmarkDecodeStep EMBER_BENCH_TOP=64: the topk kernels alone, the step queued and waited).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base topk2"
for v in $V; do xz -dc .dev29/k5/ember-$v.xz > $D/ember-$v; done; xz -dc .dev29/k5/wt.xz > $D/wt.test; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm-4.7-flash.gguf >/dev/null 2>&1 &
glm=$!
for s in llama3.2:1b youtu-llm:2b llama3.1:8b deepseek-v2-lite; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait $(jobs -p | grep -v "^$glm$")
echo "synth at $SECONDS s"
EMBER_BENCH_TOP=64 EMBER_BENCH_MODEL=$W/llama3.1-8b.gguf timeout 120 $D/wt.test -test.run XXX -test.benchtime 40x \
  -test.bench 'DecodeStep/(all|all-queued|only-topk)$' 2>&1 | grep Benchmark | awk '{print $1, $3}'
tg() { $D/ember-$2 bench --backend webgpu --model $W/$1.gguf -p 16 -n 128 -r 2 -temp $3 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["decode_mean"],1))'; }
for m in llama3.2-1b youtu-llm-2b llama3.1-8b deepseek-v2-lite glm-4.7-flash; do
  [ $m = glm-4.7-flash ] && wait $glm
  for r in 1 2; do for v in $V; do echo "== $m $v temp0.8 $(tg $m $v 0.8)"; done; done
  echo "at $SECONDS s"
done
