#!/usr/bin/env bash
# Session 17, call 13 (issue 29): attention_heads taking eight heads of one key head a workgroup where it takes one token (H: latent
# heads of youtu-llm and deepseek-v2-lite, 16 heads on their one key head; GLM's 20 keep four) against four (A, db32cad):
# ember bench --backend webgpu -p 512 -n 16 -r 2 alternated twice on youtu-llm:2b and deepseek-v2-lite Q4_0.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for f in ember-A ember-H; do xz -dc .dev29/p13/$f.xz > $D/$f; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in youtu-llm:2b deepseek-v2-lite; do $D/ember-A synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2 3; do for v in H A; do for m in youtu-llm-2b deepseek-v2-lite; do
  echo "== r$r $v $m: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; echo "at $SECONDS s"; done
echo "end at $SECONDS s"
