#!/usr/bin/env bash
# Session 21, call 1: what one norm, route or small product dispatch adds to a decode step's chain (BenchmarkDecodeStep twice-/without- classes against all-queued, three rounds), GLM-4.7-Flash, DeepSeek-V2-Lite and the 8B, Q4_0, at d62425b.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/s1/wg.test.xz > $D/wg.test; xz -dc .dev29/s1/ember.xz > $D/ember; chmod +x $D/wg.test $D/ember
W=/tmp/m; mkdir -p $W
$D/ember synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1 & P1=$!
$D/ember synth --shape deepseek-v2-lite --type Q4_0 --seed 1 -o $W/ds.gguf >/dev/null 2>&1 & P2=$!
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1 & P3=$!
wait $P1; wait $P2; wait $P3
echo "synth at $SECONDS s"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
for m in glm ds 8b; do
  echo "== $m"
  EMBER_BENCH_MODEL=$W/$m.gguf $D/wg.test -test.run '^$' -test.bench 'DecodeStep/(all-queued|twice-rmsnorm_round|without-rmsnorm_round|twice-route|twice-quantize_act|twice-matmul_round|twice-attention_values)$' -test.benchtime 48x -test.count 3 2>&1 | grep -E 'ns/op|FAIL|panic' | awk '{printf "%-60s %8.3f ms\n", $1, $3/1e6}'
  echo "at $SECONDS s"
done
