#!/usr/bin/env bash
# Session 8, call 1: MLA decode latency trials (mla_step preamble in one batch of loads; kpart 24 pairs;
# attention_values' softmax max / max+sum through subgroups), GLM-4.7-Flash and DeepSeek-V2-Lite Q4_0,
# BenchmarkDecodeStep classes queued; and the base build's dispatch chain.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base pre k24 smax ssum; do xz -dc .dev29/f1/wt-$v.xz > $D/wt-$v.test; done
xz -dc .dev29/f1/ember.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="glm-4.7-flash deepseek-v2-lite"
for s in $M; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/$s.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
$D/wt-base.test -test.run XXX -test.benchtime 200x -test.bench 'Dispatches' 2>&1 | grep Benchmark
for s in $M; do
  for round in 1 2; do
  for v in base pre k24 smax ssum; do
    echo "== $s $v"
    EMBER_BENCH_MODEL=$W/$s.gguf timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 60x \
      -test.bench 'DecodeStep/(all-queued|only-mla_step|only-attention_values)$' 2>&1 | grep Benchmark | awk '{print $1, $3, $4}'
  done
  done
  echo "at $SECONDS s"
done
echo "== full class profile, base, GLM"
EMBER_BENCH_MODEL=$W/glm-4.7-flash.gguf timeout 150 $D/wt-base.test -test.run XXX -test.benchtime 40x \
  -test.bench 'DecodeStep/' 2>&1 | grep Benchmark | awk '{print $1, $3, $7, $9}'
echo "done at $SECONDS s"
