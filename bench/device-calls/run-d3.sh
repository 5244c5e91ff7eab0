#!/usr/bin/env bash
# Session 6, call 3: tile_mul_i8 slices of two (vC) and four blocks (vD), double-buffered
# against main (54002ea): pp512 end to end and the prefill products alone.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
V="main vC vD"
D=/tmp/d; mkdir -p $D; for v in $V; do for b in ember-$v webgpu-$v.test; do xz -dc .dev29/$b.xz > $D/$b; chmod +x $D/$b; done; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-main synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/8b-q4km.gguf >/dev/null 2>&1 &
$D/ember-main synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1 &
wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do for m in 8b 8b-q4km; do for v in $V; do
  echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 8 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; done
echo "e2e at $SECONDS s"
cd gpu/webgpu
for v in $V; do
echo "#### $v products"
$D/webgpu-$v.test -test.run XXX -test.bench 'PrefillMatMul/.*/(Q4_0|Q4_K)/T512' -test.benchtime 20x 2>&1 | grep -E "^Benchmark" | awk '{for (i=1;i<NF;i++) if ($(i+1)=="GFLOP/s") g=$i; print $1, g, "GOP/s"}'
done
echo "end at $SECONDS s"
