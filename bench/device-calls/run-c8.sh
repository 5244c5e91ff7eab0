#!/usr/bin/env bash
# Session 5, call 8: ro2 (main 4cda41b) vs h16 (attention_heads' queries held
# as f16 pairs against an f16 cache), latent-attention rows and the 8B.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for f in .dev29/ember-*.xz; do b=$(basename $f .xz); xz -dc $f > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in youtu-llm:2b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember-ro2 synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for m in glm-4.7-flash deepseek-v2-lite youtu-llm-2b llama3.1-8b; do for r in 1 2; do for v in ro2 h16; do
  echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 32 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; done
echo "end at $SECONDS s"
