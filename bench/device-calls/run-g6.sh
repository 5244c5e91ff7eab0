#!/usr/bin/env bash
# Session 9, call 6: ablations of the integer tile product (tile_mul_i8) on the 8B's prefill shapes, BenchmarkPrefillMatMul
# u8 (the eight steps of a block written out), u8p (its sixteen loads first), il2 (the slice's two blocks in one loop),
# il2u (il2 written out). Same sums and bits as base. (run-g5's u8 and u8p did not compile: names shadowed the sums.)
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base il2 u8 u8p il2u"
for v in $V; do xz -dc .dev29/g6/wt-$v.xz > $D/wt-$v.test; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for round in 1 2; do
  for v in $V; do
    echo "== $v"
    timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
      -test.bench 'PrefillMatMul/(4096x4096|4096x14336|14336x4096)/(Q4_0|Q4_K)/T512' 2>&1 | grep GFLOP | awk '{print $1, $5, $6, $7, $8}'
  done
  echo "at $SECONDS s"
done
