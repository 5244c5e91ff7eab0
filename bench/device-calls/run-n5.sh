#!/usr/bin/env bash
# Session 16, call 5 (issue 29): the latent attention's loads batched (kpart loads 24 pairs of a long key before adding;
# mla_step loads its row and norm weights at once), new against base (HEAD before it), alternated twice:
# ember bench --backend webgpu -p 512 -n 128 -r 2 (decode from an empty context) on glm-4.7-flash, deepseek-v2-lite, youtu-llm:2b Q4_0.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in new base; do xz -dc .dev29/n5/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in youtu-llm:2b deepseek-v2-lite glm-4.7-flash; do $D/ember-new synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],2), j["decode"])'; }
for r in 1 2; do for v in new base; do for m in glm-4.7-flash deepseek-v2-lite youtu-llm-2b; do
  echo "== r$r $v $m: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; echo "at $SECONDS s"; done
echo "end at $SECONDS s"
