#!/usr/bin/env bash
# Session 9, call 9: at e41a0af (tiles written out), the integer tile's ablations again (noload: the next slices' parts
# never loaded; nocomp: the products of the first slice only; nobar: no barrier after the stores; wrong values but base)
# on the 8B's shapes, and the 512-token prefill chunk by kernel class on the 8B and GLM (BenchmarkDecodeStep,
# EMBER_BENCH_TOKENS=512).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base noload nocomp nobar"
for v in $V; do xz -dc .dev29/g9/wt-$v.xz > $D/wt-$v.test; done; xz -dc .dev29/g9/ember.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1 &
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1 &
for round in 1 2; do
  for v in $V; do
    echo "== $v"
    timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
      -test.bench 'PrefillMatMul/(4096x4096|4096x14336|14336x4096)/(Q4_0|Q4_K)/T512' 2>&1 | grep GFLOP | awk '{print $1, $7, $8}'
  done
done
wait; echo "synth at $SECONDS s"
for m in 8b glm; do
  echo "== $m prefill 512"
  EMBER_BENCH_MODEL=$W/$m.gguf EMBER_BENCH_TOKENS=512 timeout 200 $D/wt-base.test -test.run XXX -test.benchtime 5x \
    -test.bench 'DecodeStep/(all$|only-)' 2>&1 | grep Benchmark | awk '{print $1, $3, $9}'
  echo "at $SECONDS s"
done
