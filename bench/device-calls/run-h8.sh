#!/usr/bin/env bash
# Session 10, call 8: the integer tiles' scales, one pair a thread: sc1 (call 7: the row's of block lp or the column's
# of block lp-2 behind a branch, zeroed past the last block where it is loaded), sc1b (the same, zeroed where it is
# stored), sc2 (every thread loads its block's row and column scales, no branch, and stores one), against base
# (f860d88); BenchmarkPrefillMatMul on the 8B's shapes, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base sc1 sc1b sc2"
for v in $V; do xz -dc .dev29/h8/wt-$v.xz > $D/wt-$v.test; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in $V; do
    echo "== $v"
    timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
      -test.bench 'PrefillMatMul/(4096x1024|4096x4096|4096x14336|14336x4096)/(Q4_0|Q4_K|Q6_K)/T512' 2>&1 | grep GFLOP | awk '{print $1, $7, $8}'
  done
  echo "at $SECONDS s"
done
