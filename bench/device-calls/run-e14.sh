#!/usr/bin/env bash
# Session 7, call 14: attention_heads with its value pairs in named variables (vp) against cb679fc (cb);
# pp512 on GLM-4.7-Flash and DeepSeek-V2-Lite, Q4_0, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
V="cb vp"
D=/tmp/d; mkdir -p $D; for v in $V; do xz -dc .dev29/e14/ember-$v.xz > $D/ember-$v; chmod +x $D/ember-$v; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="glm-4.7-flash deepseek-v2-lite"
for s in $M; do $D/ember-cb synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do for s in $M; do m=${s//:/-}; for v in $V; do
  echo "== $m $v: $(timeout 60 $D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 4 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; echo "round $r at $SECONDS s"; done
