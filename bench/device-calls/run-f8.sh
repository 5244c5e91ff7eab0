#!/usr/bin/env bash
# Session 8, call 8: A/B of rmsnorm_round loading four values of the row at once (rms4) against 6a9556d (base):
# ember bench --backend webgpu -p 16 -n 128 -r 2 decode, alternated twice, 8B, youtu, DeepSeek (Q4_0); and the
# per-kernel timeline of the 8B's step for both.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base rms4; do xz -dc .dev29/f8/ember-$v.xz > $D/ember-$v; xz -dc .dev29/f8/wt-$v.xz > $D/wt-$v.test; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="llama3.1:8b youtu-llm:2b deepseek-v2-lite"
for s in $M; do $D/ember-base synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["decode_mean"],1))'; }
for m in llama3.1-8b youtu-llm-2b deepseek-v2-lite; do
  for r in 1 2; do
    for v in base rms4; do
      echo "== $m $v decode: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
    done
  done
done
echo "a/b at $SECONDS s"
for v in base rms4; do
  echo "== 8B timeline $v"
  EMBER_BENCH_MODEL=$W/llama3.1-8b.gguf timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 40x \
    -test.bench 'DecodeStep/(timeline|all-queued)$' 2>&1 | grep "timeline of\|  [a-z]\|all-queued"
done
echo "end at $SECONDS s"
