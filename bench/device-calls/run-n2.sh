#!/usr/bin/env bash
# Session 16, call 2: the issue-29 table with ember bench's decode test from an empty context (-d 0, as llama-bench's tg), beside the old bench's decode after the prompt (b089a87); GLM and DeepSeek also at depth 512 in both tools.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; xz -dc .dev29/n2/ember.xz > $D/ember; xz -dc .dev29/n2/ember-old.xz > $D/ember-old; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in llama3.2:1b youtu-llm:2b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
$D/ember synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/llama3.1-8b-q4km.gguf >/dev/null 2>&1 & P="$P $!"
wait $P
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1), round(j.get("read_gbps", 0)), j.get("kernels_per_token", ""))'; }
lb() { $D/llama-vulkan/llama-bench -m $W/$1.gguf "${@:2}" -r 2 -ngl 99 -o json 2>$W/lb.err | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])'; }
for m in llama3.2-1b youtu-llm-2b llama3.1-8b deepseek-v2-lite glm-4.7-flash llama3.1-8b-q4km; do
  echo "== $m vulkan 1: $(lb $m -p 512 -n 128)"
  echo "== $m ember: $($D/ember bench --backend webgpu --model $W/$m.gguf -p 512 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  echo "== $m ember-old: $($D/ember-old bench --backend webgpu --model $W/$m.gguf -p 512 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  echo "== $m vulkan 2: $(lb $m -p 512 -n 128)"
  echo "== $m ember temp0.8: $($D/ember bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 2 -temp 0.8 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  echo "at $SECONDS s"
done
for m in deepseek-v2-lite glm-4.7-flash llama3.1-8b; do
  [ $SECONDS -lt 540 ] || break
  echo "== $m d512 vulkan: $(lb $m -p 16 -n 128 -d 512)"
  echo "== $m d512 ember: $($D/ember bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -d 512 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  echo "at $SECONDS s"
done
grep -m1 "ggml_vulkan: 0 =" $W/lb.err
echo "end at $SECONDS s"
