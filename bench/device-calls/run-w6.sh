#!/usr/bin/env bash
# Session 24, call 6: the branch raw-q4 (Q4_0 weight parts held raw, split into nibbles at each dot) against 26e5c37, the 8B only: batch steps of 16 and 64 alternated, then lone decode (ember bench -p 16 -n 64 -r 2) alternated.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in ember-base ember-raw webgpu-base.test webgpu-raw.test; do xz -dc .dev29/w6/$b.xz > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
EMBER=$D/ember-base models 10 8b=llama3.1:8b/Q4_0
B() { EMBER_BENCH_MODEL=$W/8b.gguf EMBER_BENCH_BATCH=$2 $D/webgpu-$1.test -test.run '^$' -test.bench 'DecodeStep/all-queued$' -test.benchtime 40x 2>&1 | grep 'ns/op' | awk '{printf "%.2f ms", $3/1e6}'; }
E() { $D/ember-$1 bench --backend webgpu --model $W/8b.gguf -p 16 -n 64 -r 2 --json 2>/dev/null | tail -1 | python3 -c 'import json,sys; print(round(json.load(sys.stdin)["decode_mean"],1))'; }
for n in 16 64; do
  B base $n >/dev/null
  for r in 1 2; do echo "== batch $n r$r base $(B base $n) | raw $(B raw $n)"; done
done
echo "at $SECONDS s"
for r in 1 2; do echo "== lone r$r base $(E base) | raw $(E raw)"; [ $SECONDS -gt 150 ] && break; done
echo "at $SECONDS s"
