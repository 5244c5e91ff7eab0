#!/usr/bin/env bash
# Session 8, call 7: the closing table at 6a9556d (the F32 router matvecs loading four parts at once), ember bench
# --backend webgpu and llama-bench -ngl 99 on Vulkan, -p 512 -n 128 -r 2, same synth files, one call; plus the
# last stop's ember (a6b4c24) on the MoE rows' decode, alternated, for the change's own A/B.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; xz -dc .dev29/f7/ember.xz > $D/ember; xz -dc .dev29/f7/ember-old.xz > $D/ember-old; chmod +x $D/ember*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
$D/ember synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/llama3.1-8b-q4km.gguf >/dev/null 2>&1 &
wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1), round(j.get("read_gbps", 0)), j.get("kernels_per_token", ""))'; }
for m in glm-4.7-flash deepseek-v2-lite; do
  for r in 1 2; do
    for e in ember-old ember; do
      echo "== $m $e decode: $($D/$e bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
    done
  done
done
echo "a/b at $SECONDS s"
for m in llama3.2-1b youtu-llm-2b llama3.1-8b deepseek-v2-lite glm-4.7-flash llama3.1-8b-q4km; do
  echo "== $m ember: $($D/ember bench --backend webgpu --model $W/$m.gguf -p 512 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  echo "== $m vulkan: $($D/llama-vulkan/llama-bench -m $W/$m.gguf -p 512 -n 128 -r 2 -ngl 99 -o json 2>/dev/null | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])')"
done
echo "end at $SECONDS s"
