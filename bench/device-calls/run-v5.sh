#!/usr/bin/env bash
# Session 23, call 5: matmul_tokens_tall only where its grid has 2048 workgroups or more (tallGroups; the tree after 3ce24a8) against b4fc720: glm-4.7-flash Q4_0 serving at 1, 16, 64 streams, alternated twice; the 8B's batch steps of 8, 16, 64, alternated; the 8B's serving at 1, 16 streams, alternated.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in ember-base ember-talln webgpu-base.test webgpu-talln.test loadgen; do xz -dc .dev29/v5/$b.xz > $D/$b; chmod +x $D/$b; done
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
for v in base talln base talln; do S $v glm "1 16 64"; done
echo "at $SECONDS s"
for n in 16 64 8; do
  B base $n >/dev/null
  for r in 1 2; do echo "== batch $n r$r base $(B base $n) | talln $(B talln $n)"; done
done
echo "at $SECONDS s"
for v in base talln base talln; do S $v 8b "1 16"; [ $SECONDS -gt 480 ] && break; done
echo "at $SECONDS s"
