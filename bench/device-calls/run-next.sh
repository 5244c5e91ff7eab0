#!/usr/bin/env bash
# Next session, first device call (issue 29): the two untimed branches against main,
# binaries prebuilt from main 88cd01a, moe-grouped-prefill 4870fa2, int8-tiles 7ef3ab7
# (.dev29/ember-{main,grouped,i8tiles}.xz; rebuild if main moved), plus llama-bench Vulkan.
# carry: [".gl", ".dev29"]   (llama-vulkan.tar.xz is in .dev29)
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for f in .dev29/ember-*.xz; do b=$(basename $f .xz); xz -dc $f > $D/$b; chmod +x $D/$b; done
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember-main synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for m in llama3.2-1b llama3.1-8b; do for v in main i8tiles main i8tiles; do
  echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done
for m in deepseek-v2-lite glm-4.7-flash; do for v in main grouped main grouped; do
  echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done
for m in llama3.2-1b llama3.1-8b deepseek-v2-lite glm-4.7-flash; do
  echo "== $m vulkan: $($D/llama-vulkan/llama-bench -m $W/$m.gguf -p 512 -n 16 -r 2 -ngl 99 -o json 2>/dev/null | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])')"
done
echo "end at $SECONDS s"
