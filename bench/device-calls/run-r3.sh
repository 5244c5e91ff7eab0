#!/usr/bin/env bash
# Session 19, call 3: mla_step's parts on GLM (BenchmarkDecodeStep/timeline, position 64), test builds of 4bd64b9: A as is; B kpart without cache loads (the score pass's key reads); E the latent norm's weight loads replaced by constants; F without rope_step (the ropes of query and row and their rounding to the cache's f16). B, E, F give wrong numbers; only their times are read. Order A B E F A E F B.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; Q=; for v in A B E F; do xz -dc .dev29/r3/abl-$v.test.xz > $D/abl-$v.test & Q="$Q $!"; done; xz -dc .dev29/r3/ember.xz > $D/ember; wait $Q
chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
for v in A B E F A E F B; do
  echo "== glm $v"
  (cd gpu/webgpu && EMBER_BENCH_MODEL=$W/glm.gguf $D/abl-$v.test -test.run '^$' -test.bench 'BenchmarkDecodeStep/(timeline|all-queued)$' -test.benchtime 60x 2>&1 | grep -E "timeline of|mla_step|attention_values|FAIL|Benchmark" | head -8)
  echo "at $SECONDS s"
done
echo "end at $SECONDS s"
