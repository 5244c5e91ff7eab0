#!/usr/bin/env bash
# Session 24, call 4: decode against llama.cpp's Vulkan backend as run-u6 (per synthetic Q4_0 file, llama-bench -p 0 -n 128 -r 3 -ngl 99 and ember bench --backend webgpu -p 16 -n 128 -r 3, both from an empty context, the first tool swapped each round; two rounds), ember 26e5c37.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D; xz -dc .dev29/w4/ember.xz > $D/ember; chmod +x $D/ember
tar xJf .dev29/w4/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
EMBER=$D/ember models 30 glm=glm-4.7-flash/Q4_0 ds=deepseek-v2-lite/Q4_0 yt=youtu-llm:2b/Q4_0 8b=llama3.1:8b/Q4_0 1b=llama3.2:1b/Q4_0
L() { $D/llama-vulkan/llama-bench -m $W/$1.gguf -p 0 -n 128 -r 3 -ngl 99 -o json 2>$W/lb.err | python3 -c 'import json,sys; print(round(json.load(sys.stdin)[0]["avg_ts"],1))'; }
E() { $D/ember bench --backend webgpu --model $W/$1.gguf -p 16 -n 128 -r 3 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["decode_mean"],1))'; }
for m in glm ds yt 8b 1b; do
  for r in 1 2; do
    if [ $SECONDS -gt 420 ]; then echo "skip $m r$r at $SECONDS s"; continue; fi
    if [ $r = 1 ]; then echo "== $m r$r llama $(L $m) ember $(E $m)"; else echo "== $m r$r ember $(E $m) llama $(L $m)"; fi
  done
  echo "at $SECONDS s"
done
grep -m1 "ggml_vulkan: 0 =" $W/lb.err
