#!/usr/bin/env bash
# Session 5, call 13: Q5_K prefill tiles in integers (q5k) against 31e3361 (q4k).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for v in q4k q5k; do xz -dc .dev29/ember-$v.xz > $D/ember-$v; chmod +x $D/ember-$v; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-q4k synth --shape llama3.1:8b --type Q5_K_M --seed 1 -o $W/8b-q5km.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do for v in q4k q5k; do
  echo "== 8b-q5km $v: $($D/ember-$v bench --backend webgpu --model $W/8b-q5km.gguf -p 512 -n 8 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done
echo "end at $SECONDS s"
