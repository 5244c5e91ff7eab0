#!/usr/bin/env bash
# Session 10, call 9: the decode matvecs' workgroup shape again, now that they multiply integers: mbase (2 rows by 64
# threads, 7d821f3), r4 (4 rows by 64), w32 (2 rows by 32 threads, the rounding products 16 groups of 32; its
# MLA/MoE results are wrong, so the 8B only); BenchmarkDecodeStep/all-queued at position 64, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in mbase r4 w32; do xz -dc .dev29/h9/wt-$v.xz > $D/wt-$v.test; done; xz -dc .dev29/h9/ember.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in deepseek-v2-lite glm-4.7-flash; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/$s.gguf >/dev/null 2>&1 & done
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "8b synth at $SECONDS s"
q() { EMBER_BENCH_MODEL=$W/$1.gguf timeout 100 $D/wt-$2.test -test.run XXX -test.benchtime 200x -test.bench 'DecodeStep/all-queued$' 2>&1 | grep "^Benchmark" | awk '{print $3}'; }
for r in 1 2; do for v in mbase r4 w32; do echo "== 8b $v $(q 8b $v)"; done; done
wait
echo "synth at $SECONDS s"
for m in deepseek-v2-lite glm-4.7-flash; do
  for r in 1 2; do for v in mbase r4; do echo "== $m $v $(q $m $v)"; done; done
done
echo "end at $SECONDS s"
