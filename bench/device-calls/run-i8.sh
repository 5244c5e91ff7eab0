#!/usr/bin/env bash
# Session 11, call 8: attention_heads with the row groups' maximum, rescale and weights' sum computed by the threads that need them (ga)
# rather than by all 64 (the rescale thread 0's, through workgroup memory),
# against 7ad5b31 (base); `ember bench --backend webgpu -p 512 -n 4 -r 2`, alternated three times.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base ga; do xz -dc .dev29/i8/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b deepseek-v2-lite llama3.1:8b; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait
echo "synth at $SECONDS s"
pp() { $D/ember-$2 bench --backend webgpu --model $W/$1.gguf -p 512 -n 4 -r 2 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1))'; }
for m in llama3.2-1b youtu-llm-2b deepseek-v2-lite llama3.1-8b; do
  for r in 1 2 3; do for v in base ga; do echo "== $m $v $(pp $m $v)"; done; done
  echo "at $SECONDS s"
done
