#!/usr/bin/env bash
# Session 9, call 2: ablations of the integer tile product (tile_mul_i8) on the 8B's prefill shapes, BenchmarkPrefillMatMul
# T512, Q4_0 and Q4_K: base (8f5aeba); magic (i32 -> f32 by adding 1.5*2^23's bits and subtracting it: exact below 2^22);
# noepi (no scales: a += f32(s)); nocvt (a += bitcast(s)); nodp (xor in place of dot4I8Packed). Wrong values but for magic.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base magic noepi nocvt nodp"
for v in $V; do xz -dc .dev29/g2/wt-$v.xz > $D/wt-$v.test; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in $V; do
    echo "== $v"
    timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
      -test.bench 'PrefillMatMul/(4096x4096|4096x14336|14336x4096)/(Q4_0|Q4_K)/T512' 2>&1 | grep GFLOP | awk '{print $1, $5, $6}'
  done
  echo "at $SECONDS s"
done
