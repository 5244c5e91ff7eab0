#!/usr/bin/env bash
# Session 24, call 1: the branches tall-k, ti-tall-only and signed-q4 (each rebased on 7aecd1d) against 7aecd1d: the 8B's batch steps of 16 and 64, alternated; glm-4.7-flash Q4_0 serving at 16 and 64 streams, the four builds round-robin twice.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in ember-base ember-tallk ember-ti ember-sq4 webgpu-base.test webgpu-ti.test webgpu-sq4.test loadgen; do xz -dc .dev29/w1/$b.xz > $D/$b; chmod +x $D/$b; done
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
for n in 16 64; do
  B base $n >/dev/null
  for r in 1 2; do echo "== batch $n r$r base $(B base $n) | ti $(B ti $n) | sq4 $(B sq4 $n)"; done
done
echo "at $SECONDS s"
for r in 1 2; do for v in base tallk ti sq4; do S $v glm "16 64"; [ $SECONDS -gt 540 ] && break 2; done; done
echo "at $SECONDS s"
