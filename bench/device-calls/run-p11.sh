#!/usr/bin/env bash
# Session 17, call 11 (issue 29): where the Q4_K tiled product's time goes (34 TOP/s against Q4_0's 52 in run-p1), by ablation
# (builds whose results are wrong, timed only): K1 without the minimum terms (HAS_MIN false), K2 with constant scales (no
# super-block header loads), K3 both; A = db32cad. BenchmarkPrefillMatMul's GFLOP/s at T=512, alternated twice.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for f in wt-A wt-K1 wt-K2 wt-K3; do xz -dc .dev29/p11/$f.test.xz > $D/$f.test; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in 1 2; do for v in A K1 K2 K3; do
  echo "== r$r $v"
  $D/wt-$v.test -test.run XXX -test.bench 'PrefillMatMul/(4096x14336|14336x4096|4096x4096)/(Q4_K|Q4_0|Q6_K)/T512$' -test.benchtime 10x 2>&1 | grep -E '^Benchmark' | awk '{for(i=1;i<=NF;i++) if($(i+1)=="GFLOP/s") g=$i; print $1, g}'
done; echo "at $SECONDS s"; done
echo "end at $SECONDS s"
