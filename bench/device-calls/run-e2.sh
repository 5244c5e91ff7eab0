#!/usr/bin/env bash
# Session 7, call 2: matvec_tokens shapes (WROWS rows x TOKENS tokens a workgroup, tokens past the batch skipped),
# the 8B's batch decode step at 4 and 16 sequences, BenchmarkDecodeStep all / only-matmul_tokens, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
V="r2t4 r2t8 r2t16 r4t4 r4t8"
D=/tmp/d; mkdir -p $D; for v in $V; do xz -dc .dev29/wt-$v.xz > $D/wt-$v; chmod +x $D/wt-$v; done
xz -dc .dev29/ember-lc.xz > $D/ember; chmod +x $D/ember
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
for r in 1 2; do for n in 16 4; do for v in $V; do
  echo "== $v batch $n: $(EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=$n timeout 100 $D/wt-$v -test.run XXX -test.benchtime 30x \
    -test.bench 'DecodeStep/(all$|only-matmul_tokens)' 2>&1 | grep Benchmark | awk '{printf "%s %s  ", $1, $3}')"
done; done; echo "round $r at $SECONDS s"; done
