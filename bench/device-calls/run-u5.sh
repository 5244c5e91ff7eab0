#!/usr/bin/env bash
# Session 22, call 5: decode products' shapes after 32 lanes a row (797cd23 = l32): r4 (the rounding products' workgroups 8 groups of four rows, 256 threads), m1 (one row a matvec workgroup of 32 threads), m4 (four rows); ember bench decode of the 8B, the 1B, DeepSeek and youtu, alternated twice.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in l32 r4 m1 m4; do xz -dc .dev29/u5/ember-$b.xz > $D/ember-$b; chmod +x $D/ember-$b; done
EMBER=$D/ember-l32 models 20 8b=llama3.1:8b/Q4_0 1b=llama3.2:1b/Q4_0 ds=deepseek-v2-lite/Q4_0 yt=youtu-llm:2b/Q4_0
$D/ember-l32 bench --backend webgpu --model $W/1b.gguf -p 16 -n 128 -r 3 >/dev/null 2>&1
for m in 8b 1b yt ds; do
  for b in l32 r4 m1 m4 m4 m1 r4 l32; do
    [ $SECONDS -gt 575 ] && { echo "time up"; break; }
    r=$($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 3 2>&1 | grep -E "tg128" | awk "{print \$(NF-6), \$(NF-4), \$(NF-2)}")
    echo "$m $b: $r"
  done
  echo "at $SECONDS s"
done
