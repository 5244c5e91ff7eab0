#!/usr/bin/env bash
# Session 8, call 5: A/B of three decode trials on GLM-4.7-Flash and DeepSeek-V2-Lite (Q4_0), each against base (96e2ccc):
# pair = moe_gate_up's gate and up in one loop; s4 = F32 matvecs (routers) four parts loaded at once;
# mla2 = mla_step's loads in one batch + kpart 24 pairs. Per-kernel timeline and the queued step, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base pair s4 mla2"
for v in $V; do xz -dc .dev29/f5/wt-$v.xz > $D/wt-$v.test; done
xz -dc .dev29/f5/ember.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="glm-4.7-flash deepseek-v2-lite"
for s in $M; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/$s.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
for m in $M; do
  for round in 1 2; do
    for v in $V; do
      echo "== $m $v"
      EMBER_BENCH_MODEL=$W/$m.gguf timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 100x \
        -test.bench 'DecodeStep/(all-queued|timeline)$' 2>&1 | grep "timeline of\|mla_step\|moe_gate_up\|matmul  *g32 \|attention_values\|all-queued"
    done
  done
  echo "at $SECONDS s"
done
