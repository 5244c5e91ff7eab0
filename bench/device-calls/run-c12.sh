#!/usr/bin/env bash
# Session 5, call 12: mla_step's loads four a thread (mla) against 31e3361 (q4k), decode.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for v in q4k mla; do xz -dc .dev29/ember-$v.xz > $D/ember-$v; chmod +x $D/ember-$v; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in deepseek-v2-lite glm-4.7-flash; do $D/ember-q4k synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for m in glm-4.7-flash deepseek-v2-lite; do for r in 1 2 3; do for v in q4k mla; do
  echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 16 -n 256 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; done
echo "end at $SECONDS s"
