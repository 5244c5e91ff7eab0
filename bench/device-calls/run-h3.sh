#!/usr/bin/env bash
# Session 10, call 3: the 8B Q4_0's batch step (BenchmarkDecodeStep, EMBER_BENCH_BATCH=B at position 64): base
# (b514caf: matmul_tokens 2 rows by 4 tokens a workgroup, tokens behind "if live" branches), t8u (2 rows by 8 tokens,
# no branches), r4t4u (4 rows by 4 tokens, no branches), r4t8 (4 rows by 8 tokens, tokens 4-7 behind one branch).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base t8u r4t4u r4t8"
for v in $V; do xz -dc .dev29/h3/wt-$v.xz > $D/wt-$v.test; done; xz -dc .dev29/h3/ember.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
for B in 16 64 8 4; do
  R="1 2"; [ $B -le 4 ] && R=1
  for r in $R; do
    for v in $V; do
      echo "== B=$B $v $(EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=$B timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 40x \
        -test.bench 'DecodeStep/(all-queued|products)$' 2>&1 | grep "^Benchmark" | awk '{printf "%s %s  ", $1, $3}')"
    done
  done
  echo "at $SECONDS s"
done
echo "end at $SECONDS s"
