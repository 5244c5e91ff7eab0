#!/usr/bin/env bash
# Session 23, call 4: serving with matmul_tokens_tall (3ce24a8's tree) against b4fc720: glm-4.7-flash Q4_0 at 1, 16, 64 streams, base and tall alternated; then llama3.1:8b Q4_0 at 1, 4, 16, 64 streams, tall (bench/serve.sh, ember only, greedy, 128 tokens a stream after a 64-token prompt).
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in ember-base ember-tall loadgen; do xz -dc .dev29/v4/$b.xz > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
EMBER=$D/ember-base models 30 glm=glm-4.7-flash/Q4_0 8b=llama3.1:8b/Q4_0
S() {
  local v=$1 m=$2 streams=$3 L=$OUT/serve-$1-$2-$SECONDS; mkdir -p $L
  MODEL=$W/$m.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$streams" P=64 N=128 R=1 TEMP=0 \
    BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L timeout -k 10 150 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== serve $v $m"; cat $L/table.md; tail -2 $L/serve.err
  rm -f $L/*.json $L/loadgen.err $L/ember-serve.log
  echo "at $SECONDS s"
}
for v in base tall base tall; do S $v glm "1 16 64"; [ $SECONDS -gt 400 ] && break; done
S tall 8b "1 4 16 64"
