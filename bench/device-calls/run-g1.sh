#!/usr/bin/env bash
# Session 9, call 1: BenchmarkALUPeak with the four-steps-a-turn probes (nvidia-smi's SM clock sampled meanwhile), and
# the decode step's per-kernel timeline and queued step at 8f5aeba on the 8B, DeepSeek-V2-Lite and GLM-4.7-Flash (Q4_0).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/g1/wt.xz > $D/wt.test; xz -dc .dev29/g1/ember.xz > $D/ember; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
W=/tmp/m; mkdir -p $W
M="llama3.1:8b deepseek-v2-lite glm-4.7-flash"
for s in $M; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader -lms 500 > $OUT/clocks.txt &
SMI=$!
$D/wt.test -test.run XXX -test.bench ALUPeak -test.benchtime 3s 2>&1 | grep Gop
kill $SMI
sort $OUT/clocks.txt | uniq -c | sort -rn | head -8
wait
echo "synth at $SECONDS s"
for m in llama3.1-8b deepseek-v2-lite glm-4.7-flash; do
  echo "== $m"
  EMBER_BENCH_MODEL=$W/$m.gguf timeout 150 $D/wt.test -test.run XXX -test.benchtime 100x \
    -test.bench 'DecodeStep/(all-queued|timeline)$' 2>&1 | grep -v "^goos\|^goarch\|^pkg\|^cpu"
  echo "at $SECONDS s"
done
