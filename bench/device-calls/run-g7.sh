#!/usr/bin/env bash
# Session 9, call 7: ablations of the integer tile product (tile_mul_i8) on the 8B's prefill shapes, BenchmarkPrefillMatMul
# base = 8f5aeba; u8 = the integer tile's eight words a block written out (block_sums); u8m = u8 with i32 -> f32 by the
# 1.5*2^23 bias (exact); ft4 / ft32 = u8 with the float tile's (Q6_K's) slice steps four a loop turn / all 32 written out.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base u8 u8m ft4 ft32"
for v in $V; do xz -dc .dev29/g7/wt-$v.xz > $D/wt-$v.test; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in $V; do
    echo "== $v"
    timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
      -test.bench 'PrefillMatMul/(4096x4096|4096x14336|14336x4096)/(Q4_0|Q4_K|Q6_K)/T512' 2>&1 | grep GFLOP | awk '{print $1, $5, $6, $7, $8}'
  done
  echo "at $SECONDS s"
done
