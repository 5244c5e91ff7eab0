#!/usr/bin/env bash
# Session 10, call 5: Q6_K's tiled product in integers (q6i: tile_mul_i8 over Q8_K-packed activations, each half of a
# 32-value block with its own scale) against the float tile (base), BenchmarkPrefillMatMul on the 8B's shapes (Q4_K as
# the control: its kernel is unchanged), then whole-model prefill on the 8B Q4_K_M (its ffn_down of half the layers and
# attn_v are Q6_K): ember bench --backend webgpu -p 512 -n 16 -r 2, alternated twice.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
V="base q6i"
for v in $V; do xz -dc .dev29/h5/wt-$v.xz > $D/wt-$v.test; xz -dc .dev29/h5/ember-$v.xz > $D/ember-$v; done; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/8b-q4km.gguf >/dev/null 2>&1 &
for round in 1 2; do
  for v in $V; do
    echo "== $v"
    timeout 100 $D/wt-$v.test -test.run XXX -test.benchtime 20x \
      -test.bench 'PrefillMatMul/(4096x4096|4096x14336|14336x4096)/(Q6_K|Q4_K)/T512' 2>&1 | grep GFLOP | awk '{print $1, $5, $6, $7, $8}'
  done
  echo "at $SECONDS s"
done
wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do
  for v in $V; do
    echo "== 8b-q4km $v: $($D/ember-$v bench --backend webgpu --model $W/8b-q4km.gguf -p 512 -n 16 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  done
done
echo "end at $SECONDS s"
