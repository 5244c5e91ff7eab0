#!/usr/bin/env bash
# Session 20, call 1: matmul_tokens with 16 lanes a row (the K split 16 ways, reduce-scatter through subgroupShuffleXor; a timing build, /tmp/v16) against a435c43, the 8B's batch decode step at 4, 16 and 64 sequences (BenchmarkDecodeStep all-queued), alternated twice; the lone step as control.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for b in base v16; do xz -dc .dev29/s1/$b.test.xz > $D/$b.test; chmod +x $D/$b.test; done
xz -dc .dev29/s1/ember.xz > $D/ember; chmod +x $D/ember
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf > /dev/null 2>&1 & P=$!
(cd gpu/webgpu && $D/v16.test -test.run 'TestBatchDecodeMatchesAlone' -test.count 1 2>&1 | tail -8)
wait $P
echo "synth at $SECONDS s"
export EMBER_BENCH_MODEL=$W/8b.gguf
for r in 1 2; do
  for b in base v16; do
    echo "== $b lone: $($D/$b.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime 40x 2>&1 | grep -E 'ns/op|FAIL|panic' | awk '{print $3/1e6 " ms"}')"
    for B in 4 16 64; do
      echo "== $b B=$B: $(EMBER_BENCH_BATCH=$B $D/$b.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime 20x 2>&1 | grep -E 'ns/op|FAIL|panic' | awk '{print $3/1e6 " ms"}')"
    done
  done
  echo "at $SECONDS s"
done
