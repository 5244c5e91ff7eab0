#!/usr/bin/env bash
# Session 23, call 2: rows4 (matmul_tokens_wide four rows by eight tokens) and rows4 + tokens-inner against main (b4fc720): the 8B's batch steps of 16, 64 and 8, alternated; the rows4 step of 16 by kernel file.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in ember-base webgpu-base.test webgpu-r4.test webgpu-r4ti.test; do xz -dc .dev29/v2/$b.xz > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
EMBER=$D/ember-base models 8 8b=llama3.1:8b/Q4_0
B() { EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=$2 $D/webgpu-$1.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime 40x 2>&1 | grep 'ns/op' | awk '{printf "%.2f ms", $3/1e6}'; }
for n in 16 64 8; do
  B base $n >/dev/null
  for r in 1 2 3; do echo "== batch $n r$r base $(B base $n) | r4 $(B r4 $n) | r4ti $(B r4ti $n)"; done
done
echo "at $SECONDS s"
EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=16 $D/webgpu-r4.test -test.run '^$' -test.bench 'DecodeStep/(all-queued|only-|without-)' -test.benchtime 40x 2>&1 | grep 'ns/op' | awk '{print $1, $3/1e6 " ms", $(NF-1), $NF}'
echo "at $SECONDS s"
