#!/usr/bin/env bash
# Session 13, call 7 (a probe, not kept): is the sampled token's remaining host gap the blocking wait's wake-up? spin = mapRead
# polling without blocking (up to 50 ms) before a blocking wait, base = 766fb84; `ember bench -p 16 -n 128 -r 2 -temp 0.8`, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base spin"
for v in $V; do xz -dc .dev29/k7/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b llama3.1:8b; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
wait
echo "synth at $SECONDS s"
tg() { $D/ember-$2 bench --backend webgpu --model $W/$1.gguf -p 16 -n 128 -r 2 -temp $3 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["decode_mean"],1))'; }
for m in llama3.2-1b llama3.1-8b; do
  for r in 1 2; do for v in $V; do echo "== $m $v temp0.8 $(tg $m $v 0.8)"; done; done
  for v in $V; do echo "== $m $v greedy $(tg $m $v 0)"; done
done
echo "end at $SECONDS s"
