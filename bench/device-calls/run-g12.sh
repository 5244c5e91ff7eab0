#!/usr/bin/env bash
# Session 9, call 12: tile (e41a0af) against mt (the integer tiles 128 rows tall, a thread's block eight rows by four
# tokens; with attention_heads' full row groups loaded at once, which these products do not take): BenchmarkPrefillMatMul
# on the 8B's shapes (k/v 4096x1024 included), Q4_0, Q4_K, Q8_0, T512 and T128, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="tile mt"
for v in $V; do xz -dc .dev29/g12/wt-$v.xz > $D/wt-$v.test; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in $V; do
    echo "== $v"
    timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
      -test.bench 'PrefillMatMul/(4096x1024|4096x4096|4096x14336|14336x4096)/(Q4_0|Q4_K|Q8_0)/T' 2>&1 | grep GFLOP | awk '{print $1, $7, $8}'
  done
done
