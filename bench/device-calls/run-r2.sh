#!/usr/bin/env bash
# Session 19, call 2: what the MLA decode attention pair's time is made of: BenchmarkDecodeStep/timeline (per-kernel device times, position 64) of GLM and DeepSeek-V2-Lite with four test builds of 4bd64b9: A as is; B mla_step's score pass without cache loads, attention_values without value loads; C mla_step without the latent norm and ropes, attention_values without its softmax reductions; D mla_step without its row loads. B-D give wrong numbers; only their times are read.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; Q=; for v in A B C D; do xz -dc .dev29/r2/abl-$v.test.xz > $D/abl-$v.test & Q="$Q $!"; done; wait $Q
chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
# the synthetic files, written by an ember build of the same commit
xz -dc .dev29/r2/ember.xz > $D/ember; chmod +x $D/ember
for s in deepseek-v2-lite glm-4.7-flash; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/$s.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
for m in deepseek-v2-lite glm-4.7-flash; do
  for v in A B C D A; do
    echo "== $m $v"
    (cd gpu/webgpu && EMBER_BENCH_MODEL=$W/$m.gguf $D/abl-$v.test -test.run '^$' -test.bench 'BenchmarkDecodeStep/(timeline|all-queued)$' -test.benchtime 40x 2>&1 | grep -E "timeline of|mla_step|attention_values|matmul |Benchmark" | head -20)
    echo "at $SECONDS s"
  done
done
echo "end at $SECONDS s"
