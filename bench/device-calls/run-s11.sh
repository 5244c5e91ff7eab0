#!/usr/bin/env bash
# Session 20, call 12: BenchmarkDecodeStep/all-queued at benchtimes that are and are not multiples of its 8-step wait (the sync after b.Loop is not timed), 8B Q4_0: a batch step of 16 at 16x / 20x / 40x, a 512-token step at 8x / 10x / 16x (9b17733's test binary with BenchmarkZZWait).
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/s9/zz.test.xz > $D/zz.test; xz -dc .dev29/s9/ember.xz > $D/ember; chmod +x $D/zz.test $D/ember
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
export EMBER_BENCH_MODEL=$W/8b.gguf
q() { $D/zz.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime $1 2>&1 | grep -E 'ns/op|FAIL|panic' | awk '{print $3/1e6 " ms"}'; }
for n in 16x 20x 40x 20x 16x; do echo "B=16 $n: $(EMBER_BENCH_BATCH=16 q $n)"; done
for n in 8x 10x 16x 10x; do echo "T=512 $n: $(EMBER_BENCH_TOKENS=512 q $n)"; done
echo "end at $SECONDS s"
