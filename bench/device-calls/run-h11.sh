#!/usr/bin/env bash
# Session 10, call 11: DeepSeek-V2-Lite Q4_0 prefill at three builds, alternated three times (run-h10's pp512 was 14%
# under run-g11's): base (b514caf), q6i (f860d88, before the tiles' scales change), final (7d821f3);
# ember bench --backend webgpu -p 512 -n 16 -r 2.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; V="base q6i final"
for v in $V; do xz -dc .dev29/h11/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape deepseek-v2-lite --type Q4_0 --seed 1 -o $W/ds.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2 3; do for v in $V; do
  echo "== ds $v: $($D/ember-$v bench --backend webgpu --model $W/ds.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done
echo "end at $SECONDS s"
