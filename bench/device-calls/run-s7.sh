#!/usr/bin/env bash
# Session 20, call 8: attention_values with a thread's first four scores read and exponentiated once (new, the working tree after bfa3fa9) against bfa3fa9 (base): ember bench --backend webgpu -p 16 -n 128 -r 3 on five synthetic Q4_0 files, builds alternated twice.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for b in base new; do xz -dc .dev29/s7/ember-$b.xz > $D/ember-$b; chmod +x $D/ember-$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in glm-4.7-flash deepseek-v2-lite youtu-llm:2b llama3.1:8b llama3.2:1b; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
E() { $D/ember-$1 bench --backend webgpu --model $W/$2.gguf -p 16 -n 128 -r 3 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["decode_mean"],1))'; }
for r in 1 2; do
  for m in glm-4.7-flash deepseek-v2-lite youtu-llm-2b llama3.1-8b llama3.2-1b; do
    if [ $r = 1 ]; then echo "== $m r$r base $(E base $m) new $(E new $m)"; else echo "== $m r$r new $(E new $m) base $(E base $m)"; fi
  done
  echo "at $SECONDS s"
done
