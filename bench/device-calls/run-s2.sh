#!/usr/bin/env bash
# Session 20, call 2: the batch and tiled products' grids with the token groups fastest (a weight row's token groups run side by side, so its second and later reads come from L2), a timing build (/tmp/v16 "ord") against a435c43: the 8B's batch step at 4, 16, 64 sequences, the 512-token prefill step of the 8B and the 1B (BenchmarkDecodeStep all-queued), alternated twice; the lone step as control.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for b in base ord; do xz -dc .dev29/s2/$b.test.xz > $D/$b.test; chmod +x $D/$b.test; done
xz -dc .dev29/s2/ember.xz > $D/ember; chmod +x $D/ember
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf > /dev/null 2>&1 & P=$!
$D/ember synth --shape llama3.2:1b --type Q4_0 --seed 1 -o $W/1b.gguf > /dev/null 2>&1 & P="$P $!"
wait $P
echo "synth at $SECONDS s"
q() { $D/$1.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime $2 2>&1 | grep -E 'ns/op|FAIL|panic' | awk '{print $3/1e6 " ms"}'; }
for r in 1 2; do
  for b in base ord; do
    export EMBER_BENCH_MODEL=$W/8b.gguf
    echo "== $b 8b lone: $(q $b 40x)"
    for B in 4 16 64; do echo "== $b 8b B=$B: $(EMBER_BENCH_BATCH=$B q $b 20x)"; done
    echo "== $b 8b T=512: $(EMBER_BENCH_TOKENS=512 q $b 10x)"
    export EMBER_BENCH_MODEL=$W/1b.gguf
    echo "== $b 1b T=512: $(EMBER_BENCH_TOKENS=512 q $b 20x)"
  done
  echo "at $SECONDS s"
done
