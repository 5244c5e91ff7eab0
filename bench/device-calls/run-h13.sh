#!/usr/bin/env bash
# Session 10, call 13: Q4_1, Q5_0 and Q5_1 prefill tiles in integers (q5i: tile_mul_i8 over Q8_0-packed activations with
# their block sums) against base (the float tile decoding value by value; HEAD's kernels with this call's benchmark
# types), BenchmarkPrefillMatMul on two of the 8B's shapes (Q4_0 as the control), alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base q5i"
for v in $V; do xz -dc .dev29/h13/wt-$v.xz > $D/wt-$v.test; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in $V; do
    echo "== $v"
    timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
      -test.bench 'PrefillMatMul/(4096x4096|4096x14336)/(Q4_1|Q5_0|Q5_1|Q4_0)/T512' 2>&1 | grep GFLOP | awk '{print $1, $7, $8}'
  done
  echo "at $SECONDS s"
done
