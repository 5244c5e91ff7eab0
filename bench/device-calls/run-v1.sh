#!/usr/bin/env bash
# Session 23, call 1: matvec-two (c05f0a1) against main (b4fc720), decode; tokens-inner (a row pair's token groups neighbouring workgroups) against main, batch steps of 16 and 64; the 8B's batch step of 16 by kernel file (only-/without-).
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in ember-base ember-two webgpu-base.test webgpu-ti.test; do xz -dc .dev29/v1/$b.xz > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
EMBER=$D/ember-base models 20 8b=llama3.1:8b/Q4_0 1b=llama3.2:1b/Q4_0 ds=deepseek-v2-lite/Q4_0 yt=youtu-llm:2b/Q4_0
E() { $D/ember-$1 bench --backend webgpu --model $W/$2.gguf -p 16 -n 128 -r 3 2>/dev/null | grep -i 'tg128' | awk '{print $(NF-6), $(NF-4), $(NF-2)}'; }
B() { EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=$2 $D/webgpu-$1.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime 40x 2>&1 | grep 'ns/op' | awk '{print $3/1e6 " ms"}'; }
for m in 8b 1b ds yt; do
  for r in 1 2; do echo "== $m r$r base $(E base $m) | two $(E two $m)"; done
  echo "at $SECONDS s"
done
for n in 16 64; do
  B base $n >/dev/null
  for r in 1 2; do echo "== batch $n r$r base $(B base $n) | ti $(B ti $n)"; done
done
echo "at $SECONDS s"
EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=16 $D/webgpu-base.test -test.run '^$' -test.bench 'DecodeStep/(all-queued|only-|without-)' -test.benchtime 40x 2>&1 | grep 'ns/op' | awk '{print $1, $3/1e6 " ms", $(NF-1), $NF}'
echo "at $SECONDS s"
