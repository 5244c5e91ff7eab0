#!/usr/bin/env bash
# Session 9, call 11: the closing table at ah (e41a0af's tiles + attention_heads' full row groups loaded before their
# maximum and sum): ember bench --backend webgpu and llama-bench -ngl 99 on Vulkan, -p 512 -n 128 -r 2, same synth files;
# first an A/B of prefill, tile (e41a0af) against ah, on GLM and DeepSeek (-p 512 -n 16 -r 1, alternated twice).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for v in tile ah; do xz -dc .dev29/g11/ember-$v.xz > $D/ember-$v; done; chmod +x $D/ember*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember-ah synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
$D/ember-ah synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/llama3.1-8b-q4km.gguf >/dev/null 2>&1 &
wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1), round(j.get("read_gbps", 0)), j.get("kernels_per_token", ""))'; }
for m in glm-4.7-flash deepseek-v2-lite; do
  for r in 1 2; do
    for e in tile ah; do
      echo "== $m $e pp: $($D/ember-$e bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 1 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
    done
  done
done
echo "a/b at $SECONDS s"
for m in llama3.2-1b youtu-llm-2b llama3.1-8b deepseek-v2-lite glm-4.7-flash llama3.1-8b-q4km; do
  echo "== $m ember: $($D/ember-ah bench --backend webgpu --model $W/$m.gguf -p 512 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  echo "== $m vulkan: $($D/llama-vulkan/llama-bench -m $W/$m.gguf -p 512 -n 128 -r 2 -ngl 99 -o json 2>/dev/null | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])')"
  echo "at $SECONDS s"
done
echo "end at $SECONDS s"
