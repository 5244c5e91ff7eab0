#!/usr/bin/env bash
# Session 11, call 5: rope a workgroup per four heads of a token, its angles computed once into workgroup memory (rope), against
# 8b304a5 (pk); `ember bench --backend webgpu -p 512 -n 4 -r 2`, alternated three times, the 1B, youtu and the 8B.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in pk rope; do xz -dc .dev29/i5/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b llama3.1:8b; do $D/ember-pk synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait
echo "synth at $SECONDS s"
pp() { $D/ember-$2 bench --backend webgpu --model $W/$1.gguf -p 512 -n 4 -r 2 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1))'; }
for m in llama3.2-1b youtu-llm-2b llama3.1-8b; do
  for r in 1 2 3; do for v in pk rope; do echo "== $m $v $(pp $m $v)"; done; done
done
echo "end at $SECONDS s"
