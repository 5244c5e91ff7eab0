#!/usr/bin/env bash
# Session 5, call 11: Q4_K prefill tiles in integers (q4k) against f2d928c (final).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for v in final q4k; do xz -dc .dev29/ember-$v.xz > $D/ember-$v; chmod +x $D/ember-$v; done
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-final synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/8b-q4km.gguf >/dev/null 2>&1 &
$D/ember-final synth --shape deepseek-v2-lite --type Q4_K_M --seed 1 -o $W/ds-q4km.gguf >/dev/null 2>&1 &
$D/ember-final synth --shape llama3.2:1b --type Q4_K_M --seed 1 -o $W/1b-q4km.gguf >/dev/null 2>&1 &
wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for m in 8b-q4km ds-q4km 1b-q4km; do for r in 1 2; do for v in final q4k; do
  echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 32 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done
echo "== $m vulkan: $($D/llama-vulkan/llama-bench -m $W/$m.gguf -p 512 -n 32 -r 2 -ngl 99 -o json 2>/dev/null | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])')"
done
echo "end at $SECONDS s"
