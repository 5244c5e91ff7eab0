#!/usr/bin/env bash
# Session 23, call 6: tallr (run-v5's tallGroups build with the two-row batch loop of b4fc720 restored, four rows in accumulate_rows4 of their own) against b4fc720: glm-4.7-flash Q4_0 serving at 1, 16, 64 streams, alternated twice; the 8B's batch step of 16, alternated.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in ember-base ember-tallr webgpu-base.test webgpu-tallr.test loadgen; do xz -dc .dev29/v6/$b.xz > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
EMBER=$D/ember-base models 30 glm=glm-4.7-flash/Q4_0 8b=llama3.1:8b/Q4_0
S() {
  local v=$1 m=$2 streams=$3 L=$OUT/serve-$1-$2-$SECONDS; mkdir -p $L
  MODEL=$W/$m.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$streams" P=64 N=128 R=1 TEMP=0 \
    BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L timeout -k 10 150 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== serve $v $m"; grep '^| [0-9]' $L/table.md; tail -1 $L/serve.err
  rm -rf $L
}
B() { EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=$2 $D/webgpu-$1.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime 40x 2>&1 | grep 'ns/op' | awk '{printf "%.2f ms", $3/1e6}'; }
for v in base tallr base tallr; do S $v glm "1 16 64"; done
echo "at $SECONDS s"
B base 16 >/dev/null
for r in 1 2; do echo "== batch 16 r$r base $(B base 16) | tallr $(B tallr 16)"; done
echo "at $SECONDS s"
