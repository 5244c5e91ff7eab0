#!/usr/bin/env bash
# Session 24, call 3: matmul_tokens_qkv (a batch step's query, key and value products in one dispatch; the tree committed after 26e5c37) against 26e5c37: the 8B's batch steps of 16, 64 and 8 alternated, glm-4.7-flash's and the 8B's serving at 16 and 64 streams alternated.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in ember-base ember-qkv webgpu-base.test webgpu-qkv.test loadgen; do xz -dc .dev29/w3/$b.xz > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
EMBER=$D/ember-base models 30 glm=glm-4.7-flash/Q4_0 8b=llama3.1:8b/Q4_0
S() {
  local v=$1 m=$2 streams=$3 L=$OUT/serve-$1-$2-$SECONDS; mkdir -p $L
  MODEL=$W/$m.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$streams" P=64 N=128 R=1 TEMP=0 \
    BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L timeout -k 10 150 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== serve $v $m at $SECONDS s"; grep '^| [0-9]' $L/table.md; tail -1 $L/serve.err
  rm -rf $L
}
B() { EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=$2 $D/webgpu-$1.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime 40x 2>&1 | grep 'ns/op' | awk '{printf "%.2f ms", $3/1e6}'; }
for n in 16 64 8; do
  B base $n >/dev/null
  for r in 1 2; do echo "== batch $n r$r base $(B base $n) | qkv $(B qkv $n)"; done
done
echo "at $SECONDS s"
for r in 1 2; do for v in base qkv; do S $v glm "16 64"; done; done
echo "at $SECONDS s"
for r in 1 2; do for v in base qkv; do S $v 8b "16 64"; [ $SECONDS -gt 540 ] && break 2; done; done
echo "at $SECONDS s"
