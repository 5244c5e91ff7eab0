#!/usr/bin/env bash
# Session 21, call 4: where matmul_norm's cost is (timing builds, wrong numbers): base d62425b, nt (matmul_norm, tail a thread a block), A (nt without the tail's work: count and barriers kept), B (nt without barrier, count or tail: the 256-thread product and residual only); `ember bench --backend webgpu -p 16 -n 128 -r 3`, alternated twice, 8B and 1B Q4_0.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for b in base nt A B; do xz -dc .dev29/s4/ember-$b.xz > $D/ember-$b; chmod +x $D/ember-$b; done
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1 & P3=$!
$D/ember-base synth --shape llama3.2:1b --type Q4_0 --seed 1 -o $W/1b.gguf >/dev/null 2>&1 & P4=$!
wait $P3; wait $P4
echo "synth at $SECONDS s"
for m in 8b 1b; do
  for b in base nt A B B A nt base; do
    r=$($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 3 2>&1 | grep -E "tg128" | awk "{print \$(NF-6), \$(NF-4), \$(NF-2)}")
    echo "$m $b: $r"
  done
  echo "at $SECONDS s"
done
