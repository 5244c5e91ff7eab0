#!/usr/bin/env bash
# Session 9, call 8: ember bench --backend webgpu on whole models. Prefill (-p 512 -n 16 -r 2): base = 8f5aeba against
# tile = e41a0af (the tiles' inner loops written out). Decode (-p 16 -n 128 -r 2): tile against acc = tile + every matvec
# loading four (then two) parts before adding them (matvec.wgsl accumulate). Alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base tile acc; do xz -dc .dev29/g8/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
$D/ember-base synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/llama3.1-8b-q4km.gguf >/dev/null 2>&1 &
wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for m in llama3.1-8b llama3.1-8b-q4km deepseek-v2-lite glm-4.7-flash; do
  for r in 1 2; do
    for e in base tile; do
      echo "== $m pp $e: $($D/ember-$e bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
    done
    for e in tile acc; do
      echo "== $m tg $e: $($D/ember-$e bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
    done
  done
  echo "at $SECONDS s"
done
