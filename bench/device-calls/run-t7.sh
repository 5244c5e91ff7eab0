#!/usr/bin/env bash
# Session 21, call 7: matmul_norm, its tail four values a thread and eight threads a block through workgroup memory (Q, few registers), against d62425b (base) and the tail-less timing build A; 8B, 1B, GLM Q4_0.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for b in base Q A; do xz -dc .dev29/s7/ember-$b.xz > $D/ember-$b; chmod +x $D/ember-$b; done
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1 & P3=$!
$D/ember-base synth --shape llama3.2:1b --type Q4_0 --seed 1 -o $W/1b.gguf >/dev/null 2>&1 & P4=$!
$D/ember-base synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1 & P1=$!
wait $P3; wait $P4
echo "synth at $SECONDS s"
for m in 8b 1b; do
  for b in base Q A A Q base; do
    r=$($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 3 2>&1 | grep -E "tg128" | awk "{print \$(NF-6), \$(NF-4), \$(NF-2)}")
    echo "$m $b: $r"
  done
  echo "at $SECONDS s"
done
wait $P1
for m in glm; do
  for b in base Q Q base; do
    r=$($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 3 2>&1 | grep -E "tg128" | awk "{print \$(NF-6), \$(NF-4), \$(NF-2)}")
    echo "$m $b: $r"
  done
  echo "at $SECONDS s"
done
