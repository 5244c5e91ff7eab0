#!/usr/bin/env bash
# Session 7, call 13: prefill attention taking the last tokens first (rev) against fafbcf4 (base);
# pp512 on GLM-4.7-Flash, DeepSeek-V2-Lite and the 8B, Q4_0, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
V="base rev"
D=/tmp/d; mkdir -p $D; for v in $V; do xz -dc .dev29/e13/ember-$v.xz > $D/ember-$v; chmod +x $D/ember-$v; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="glm-4.7-flash deepseek-v2-lite llama3.1:8b"
for s in $M; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do for s in $M; do m=${s//:/-}; for v in $V; do
  echo "== $m $v: $(timeout 60 $D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 4 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; echo "round $r at $SECONDS s"; done
