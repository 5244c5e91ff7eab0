#!/usr/bin/env bash
# Session 19, call 4: the issue-29 table at 4bd64b9 (the WebGPU kernels of db32cad): per synthetic file llama-bench -p 512 -n 128 -r 2 -ngl 99 (Vulkan) twice around ember bench --backend webgpu -p 512 -n 128 -r 2 (both decode from an empty context).
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; xz -dc .dev29/r4/ember.xz > $D/ember; chmod +x $D/ember
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in llama3.2:1b youtu-llm:2b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
$D/ember synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/llama3.1-8b-q4km.gguf >/dev/null 2>&1 & P="$P $!"
wait $P
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1), round(j.get("read_gbps", 0)), j.get("kernels_per_token", ""))'; }
lb() { $D/llama-vulkan/llama-bench -m $W/$1.gguf -p 512 -n 128 -r 2 -ngl 99 -o json 2>$W/lb.err | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])'; }
for m in llama3.2-1b youtu-llm-2b llama3.1-8b deepseek-v2-lite glm-4.7-flash llama3.1-8b-q4km; do
  echo "== $m vulkan 1: $(lb $m)"
  echo "== $m ember: $($D/ember bench --backend webgpu --model $W/$m.gguf -p 512 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  echo "== $m vulkan 2: $(lb $m)"
  echo "at $SECONDS s"
done
grep -m1 "ggml_vulkan: 0 =" $W/lb.err
echo "end at $SECONDS s"
