#!/usr/bin/env bash
# Session 12, call 1: attention_heads with f16-cache queries held in workgroup memory as f32 values (h32)
# rather than packed halves (two conversions a pair and head group in the score loop), against bb69fc4 (base);
# `ember bench --backend webgpu -p 512 -n 4 -r 2`, alternated three times.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base h32; do xz -dc .dev29/j1/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm-4.7-flash.gguf >/dev/null 2>&1 &
glm=$!
for s in llama3.2:1b youtu-llm:2b deepseek-v2-lite; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait $(jobs -p | grep -v "^$glm$")
echo "synth at $SECONDS s"
pp() { $D/ember-$2 bench --backend webgpu --model $W/$1.gguf -p 512 -n 4 -r 2 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1))'; }
for m in youtu-llm-2b llama3.2-1b deepseek-v2-lite glm-4.7-flash; do
  [ $m = glm-4.7-flash ] && wait $glm
  for r in 1 2 3; do for v in base h32; do echo "== $m $v $(pp $m $v)"; done; done
  echo "at $SECONDS s"
done
