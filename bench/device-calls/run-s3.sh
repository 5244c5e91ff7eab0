#!/usr/bin/env bash
# Session 20, call 3: decode against llama.cpp's Vulkan backend with a symmetric protocol: per synthetic Q4_0 file, three rounds of llama-bench -p 0 -n 128 -r 3 -ngl 99 and ember bench --backend webgpu -p 16 -n 128 -r 3 (both decode from an empty context), the tool that runs first swapped each round; ratio of medians. ember a435c43.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; xz -dc .dev29/s3/ember.xz > $D/ember; chmod +x $D/ember
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in glm-4.7-flash deepseek-v2-lite youtu-llm:2b llama3.1:8b; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
L() { $D/llama-vulkan/llama-bench -m $W/$1.gguf -p 0 -n 128 -r 3 -ngl 99 -o json 2>$W/lb.err | python3 -c 'import json,sys; print(round(json.load(sys.stdin)[0]["avg_ts"],1))'; }
E() { $D/ember bench --backend webgpu --model $W/$1.gguf -p 16 -n 128 -r 3 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["decode_mean"],1))'; }
for m in glm-4.7-flash deepseek-v2-lite youtu-llm-2b llama3.1-8b; do
  if [ $SECONDS -gt 470 ]; then echo "skip $m at $SECONDS s"; continue; fi
  for r in 1 2 3; do
    if [ $((r % 2)) = 1 ]; then echo "== $m r$r llama $(L $m) ember $(E $m)"; else echo "== $m r$r ember $(E $m) llama $(L $m)"; fi
  done
  echo "at $SECONDS s"
done
grep -m1 "ggml_vulkan: 0 =" $W/lb.err
