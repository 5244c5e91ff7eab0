#!/usr/bin/env bash
# Session 22, call 1: route-tail (3b3c450) and matmul_norm R (2653eb2) against main (2bd1aa8) on the MoE/MLA files; GLM, DeepSeek, youtu Q4_0.
set -u
exec > >(tee $OUT/log.txt) 2>&1
. bench/device-calls/setup.sh
D=/tmp/d; mkdir -p $D
for b in base rt R; do xz -dc .dev29/u1/ember-$b.xz > $D/ember-$b; chmod +x $D/ember-$b; done
df -h /dev/shm /tmp | cat; nproc; free -g | head -2
EMBER=$D/ember-base models 30 glm=glm-4.7-flash/Q4_0 ds=deepseek-v2-lite/Q4_0 yt=youtu-llm:2b/Q4_0
for m in ds glm yt; do
  bs="base rt R R rt base"; [ $m = yt ] && bs="base R R base"
  for b in $bs; do
    [ $SECONDS -gt 560 ] && { echo "time up"; break; }
    t0=$SECONDS
    r=$($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 3 2>&1 | grep -E "tg128" | awk "{print \$(NF-6), \$(NF-4), \$(NF-2)}")
    echo "$m $b: $r  ($((SECONDS-t0)) s)"
  done
  echo "at $SECONDS s"
done
