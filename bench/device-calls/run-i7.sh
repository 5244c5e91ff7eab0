#!/usr/bin/env bash
# Session 11, call 7: attention_heads (prefill attention) with more loads in flight, same adds in the same order: k16
# (sixteen key pairs a lane loaded before they are added, not eight), v8 (eight value rows, not four), kv (both),
# against 7ad5b31 (base); `ember bench --backend webgpu -p 512 -n 4 -r 2`, alternated twice, the 1B, youtu and DeepSeek.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base k16 v8 kv; do xz -dc .dev29/i7/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b deepseek-v2-lite; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait
echo "synth at $SECONDS s"
pp() { $D/ember-$2 bench --backend webgpu --model $W/$1.gguf -p 512 -n 4 -r 2 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1))'; }
for m in youtu-llm-2b deepseek-v2-lite llama3.2-1b; do
  for r in 1 2; do for v in base k16 v8 kv; do echo "== $m $v $(pp $m $v)"; done; done
  echo "at $SECONDS s"
done
