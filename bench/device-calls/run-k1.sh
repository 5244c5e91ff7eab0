#!/usr/bin/env bash
# Session 13, call 1: greedy chains overlapped (chainPipe: the next chain submitted before the last one's tokens are read)
# in chains of 8 (pipe8) and of 32 (pipe32) against HEAD's growing chains without overlap (base = 64e88ac);
# `ember bench --backend webgpu -p 16 -n 128 -r 2`, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base pipe8 pipe32"
for v in $V; do xz -dc .dev29/k1/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm-4.7-flash.gguf >/dev/null 2>&1 &
glm=$!
for s in llama3.2:1b youtu-llm:2b llama3.1:8b deepseek-v2-lite; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait $(jobs -p | grep -v "^$glm$")
echo "synth at $SECONDS s"
tg() { $D/ember-$2 bench --backend webgpu --model $W/$1.gguf -p 16 -n 128 -r 2 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["decode_mean"],1))'; }
for m in llama3.2-1b youtu-llm-2b llama3.1-8b deepseek-v2-lite glm-4.7-flash; do
  [ $m = glm-4.7-flash ] && wait $glm
  for r in 1 2; do for v in $V; do echo "== $m $v $(tg $m $v)"; done; done
  echo "at $SECONDS s"
done
