#!/usr/bin/env bash
# Session 22, call 2: batch decode steps of 16 and 64 (8B Q4_0, BenchmarkDecodeStep all-queued) of main (4eb78c7), tokens-groups (c866604: matmul_tokens_wide four groups a workgroup) and an ablation (every token of a workgroup reading the first token's activations, wrong numbers); ember bench decode of main against matvec-wide (273d43b), 8B and 1B.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in base tg act; do xz -dc .dev29/u2/$b.test.xz > $D/$b.test; chmod +x $D/$b.test; done
for b in base mw; do xz -dc .dev29/u2/ember-$b.xz > $D/ember-$b; chmod +x $D/ember-$b; done
EMBER=$D/ember-base models 10 8b=llama3.1:8b/Q4_0 1b=llama3.2:1b/Q4_0
export EMBER_BENCH_MODEL=$W/8b.gguf
q() { $D/$1.test -test.run '^$' -test.bench "DecodeStep/$2\$" -test.benchtime 40x 2>&1 | grep -E 'ns/op|FAIL|panic' | awk '{print $3/1e6 " ms"}'; }
for B in 16 64; do
  for b in base tg act act tg base; do echo "B=$B $b: $(EMBER_BENCH_BATCH=$B q $b all-queued)"; done
done
echo "B=16 base only-matmul_tokens_wide: $(EMBER_BENCH_BATCH=16 q base only-matmul_tokens_wide)"
echo "B=16 tg only-matmul_tokens_wide: $(EMBER_BENCH_BATCH=16 q tg only-matmul_tokens_wide)"
echo "B=1 base: $(q base all-queued)"
echo "at $SECONDS s"
for m in 8b 1b; do
  for b in base mw mw base; do
    [ $SECONDS -gt 560 ] && { echo "time up"; break; }
    r=$($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 3 2>&1 | grep -E "tg128" | awk "{print \$(NF-6), \$(NF-4), \$(NF-2)}")
    echo "$m $b: $r"
  done
  echo "at $SECONDS s"
done
