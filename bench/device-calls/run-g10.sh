#!/usr/bin/env bash
# Session 9, call 10: integer tile variants at e41a0af (base): s4 = Q4_0's nibbles made signed bytes in three operations
# ((q & 0x0f..) + 0x78.. ) ^ 0x80.. (was eleven); seq = block_sums adding word by word (was one sum of eight);
# s4seq = both. Same bytes and sums. BenchmarkPrefillMatMul on the 8B's shapes, T512, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base s4 seq s4seq"
for v in $V; do xz -dc .dev29/g10/wt-$v.xz > $D/wt-$v.test; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in $V; do
    echo "== $v"
    timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
      -test.bench 'PrefillMatMul/(4096x4096|4096x14336|14336x4096)/(Q4_0|Q4_K)/T512' 2>&1 | grep GFLOP | awk '{print $1, $7, $8}'
  done
done
