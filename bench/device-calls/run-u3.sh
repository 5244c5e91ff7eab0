#!/usr/bin/env bash
# Session 22, call 3: two builds against main (4eb78c7): l32 (every matvec's rows over 32 lanes, lone and batch alike) and xs (the integer matvecs' activation scale and sum as two word loads); batch steps of 16 and 64 (8B, BenchmarkDecodeStep all-queued) and ember bench decode of the 8B, the 1B and DeepSeek.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in base l32 xs; do xz -dc .dev29/u3/$b.test.xz > $D/$b.test; xz -dc .dev29/u3/ember-$b.xz > $D/ember-$b; chmod +x $D/$b.test $D/ember-$b; done
EMBER=$D/ember-base models 20 8b=llama3.1:8b/Q4_0 1b=llama3.2:1b/Q4_0 ds=deepseek-v2-lite/Q4_0
export EMBER_BENCH_MODEL=$W/8b.gguf
q() { $D/$1.test -test.run '^$' -test.bench "DecodeStep/$2\$" -test.benchtime 40x 2>&1 | grep -E 'ns/op|FAIL|panic' | awk '{print $3/1e6 " ms"}'; }
echo "warm: $(EMBER_BENCH_BATCH=16 q base all-queued)"
for B in 16 64; do
  for b in base l32 xs xs l32 base; do echo "B=$B $b: $(EMBER_BENCH_BATCH=$B q $b all-queued)"; done
done
echo "at $SECONDS s"
for m in 8b 1b ds; do
  for b in base l32 xs xs l32 base; do
    [ $SECONDS -gt 570 ] && { echo "time up"; break; }
    r=$($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 3 2>&1 | grep -E "tg128" | awk "{print \$(NF-6), \$(NF-4), \$(NF-2)}")
    echo "$m $b: $r"
  done
  echo "at $SECONDS s"
done
