#!/usr/bin/env bash
# Session 23, call 3: matmul_tokens_tall (four rows by eight tokens from 16 sequences on) with a row group's token groups side by side, against main (b4fc720): the 8B's batch steps of 8, 16, 32, 64, alternated; then bench/serve.sh (ember only, greedy, 128 tokens a stream after a 64-token prompt) at 1, 16, 64 streams, base and tall.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in ember-base ember-tall webgpu-base.test webgpu-tall.test loadgen; do xz -dc .dev29/v3/$b.xz > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
EMBER=$D/ember-base models 8 8b=llama3.1:8b/Q4_0
B() { EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=$2 $D/webgpu-$1.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime 40x 2>&1 | grep 'ns/op' | awk '{printf "%.2f ms", $3/1e6}'; }
for n in 16 64 32 8; do
  B base $n >/dev/null
  for r in 1 2; do echo "== batch $n r$r base $(B base $n) | tall $(B tall $n)"; done
done
echo "at $SECONDS s"
for v in base tall base tall; do
  L=$OUT/serve-$v-$SECONDS; mkdir -p $L
  MODEL=$W/8b.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="1 16 64" P=64 N=128 R=1 TEMP=0 \
    BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L timeout -k 10 150 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== serve $v"; cat $L/table.md; tail -2 $L/serve.err
  rm -f $L/*.json $L/loadgen.err
  echo "at $SECONDS s"
  [ $SECONDS -gt 480 ] && break
done
