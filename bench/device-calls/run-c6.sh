#!/usr/bin/env bash
# Session 5, call 6: prefill attention occupancy probe: pfa (new kernel) vs
# maxd (q4 sized for 128-value heads: 10 KB less workgroup memory) vs ro
# (Q, K, V bound read-only).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for f in .dev29/ember-*.xz; do b=$(basename $f .xz); xz -dc $f > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b llama3.1:8b; do $D/ember-pfa synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for m in llama3.1-8b llama3.2-1b; do for r in 1 2; do for v in pfa maxd ro; do
  echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 8 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; done
for v in pfa maxd; do echo "== 8b p2048 $v: $($D/ember-$v bench --backend webgpu --model $W/llama3.1-8b.gguf -p 2048 -n 8 -r 1 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"; done
echo "end at $SECONDS s"
