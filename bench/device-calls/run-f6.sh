#!/usr/bin/env bash
# Session 8, call 6: where mla_step's and attention_values' time goes, by ablation (timing only: the ablated
# builds compute wrong values): m0 mla_step returns at once (its floor), m1 without its scores, m2 without
# the norm and ropes; a0 attention_values returns at once, a1 without its rounding. DeepSeek-V2-Lite and
# GLM-4.7-Flash Q4_0, per-kernel timeline, base at 6a9556d.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base m0 m1 m2 a0 a1"
for v in $V; do xz -dc .dev29/f6/wt-$v.xz > $D/wt-$v.test; done
xz -dc .dev29/f6/ember.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="deepseek-v2-lite glm-4.7-flash"
for s in $M; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/$s.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
for m in $M; do
  for v in $V; do
    echo "== $m $v"
    EMBER_BENCH_MODEL=$W/$m.gguf timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 40x \
      -test.bench 'DecodeStep/(timeline)$' 2>&1 | grep "timeline of\|mla_step\|attention_values\|quantize_act\|rmsnorm_round"
  done
  echo "at $SECONDS s"
done
