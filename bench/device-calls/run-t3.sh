#!/usr/bin/env bash
# Session 21, call 3: decode with matmul_norm, its tail a thread a Q8_0 block (rms_scale as before) against d62425b, `ember bench --backend webgpu -p 16 -n 128 -r 3`, alternated twice, five Q4_0 files.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for b in base nt; do xz -dc .dev29/s3/ember-$b.xz > $D/ember-$b; chmod +x $D/ember-$b; done
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1 & P1=$!
$D/ember-base synth --shape deepseek-v2-lite --type Q4_0 --seed 1 -o $W/ds.gguf >/dev/null 2>&1 & P2=$!
$D/ember-base synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1 & P3=$!
$D/ember-base synth --shape llama3.2:1b --type Q4_0 --seed 1 -o $W/1b.gguf >/dev/null 2>&1 & P4=$!
$D/ember-base synth --shape youtu-llm:2b --type Q4_0 --seed 1 -o $W/youtu.gguf >/dev/null 2>&1 & P5=$!
wait $P1; wait $P2; wait $P3; wait $P4; wait $P5
echo "synth at $SECONDS s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for m in 8b glm 1b ds youtu; do
  for b in base nt base nt; do
    r=$($D/ember-$b bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 3 2>&1 | grep -E "tg128" | awk "{print \$(NF-6), \$(NF-4), \$(NF-2)}")
    echo "$m $b: $r"
  done
  echo "at $SECONDS s"
done
