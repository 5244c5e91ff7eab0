#!/usr/bin/env bash
# Session 20, call 11: a 512-token step of the 8B and the 1B under submit-and-wait cadences (a test file not committed: BenchmarkZZWait in gpu/webgpu, 9b17733): queued8 (Poll(true) every 8 steps), wait1 (every step), wait2, wait1sleep (3 ms idle after each wait), wait1spin (OnSubmittedWorkDone and Poll(false) spinning).
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/s9/zz.test.xz > $D/zz.test; xz -dc .dev29/s9/ember.xz > $D/ember; chmod +x $D/zz.test $D/ember
W=/tmp/m; mkdir -p $W; P=
for s in llama3.2:1b llama3.1:8b; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
for m in llama3.1-8b llama3.2-1b; do
  EMBER_BENCH_MODEL=$W/$m.gguf EMBER_BENCH_TOKENS=512 $D/zz.test -test.run '^$' -test.bench ZZWait -test.benchtime 16x 2>&1 | grep -E 'ZZ|FAIL|panic' | awk '{print $1, $5, $6, $7, $8, $9, $10}'
  echo "at $SECONDS s"
done
