#!/usr/bin/env bash
# Session 6, call 1: Q5_K integer tiles (q5k = main+branch) against main (2079aa1);
# where the 8B and GLM prefill chunks and GLM's decode step go at main.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for f in .dev29/ember-main.xz .dev29/ember-q5k.xz .dev29/webgpu-main.test.xz; do b=$(basename $f .xz); xz -dc $f > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-main synth --shape llama3.1:8b --type Q5_K_M --seed 1 -o $W/8b-q5km.gguf >/dev/null 2>&1 &
for s in llama3.1:8b glm-4.7-flash; do $D/ember-main synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for r in 1 2; do for v in main q5k; do
  echo "== 8b-q5km $v: $($D/ember-$v bench --backend webgpu --model $W/8b-q5km.gguf -p 512 -n 8 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done
echo "ab at $SECONDS s"
cd gpu/webgpu
prof() { awk '{k=0; for (i=4;i<NF;i++) if ($(i+1)=="kernels") k=$i; printf "%s %.0f us %s kernels\n", $1, $3/1000, k}' | sort -k2 -n -r; }
for m in llama3.1-8b glm-4.7-flash; do
echo "#### $m prefill 512"
EMBER_BENCH_TOKENS=512 EMBER_BENCH_MODEL=$W/$m.gguf $D/webgpu-main.test -test.run XXX -test.bench 'DecodeStep/(all$|only-)' -test.benchtime 4x -test.count 1 2>&1 | grep -E "^Benchmark" | prof
echo "at $SECONDS s"
done
echo "#### glm decode at 64"
EMBER_BENCH_MODEL=$W/glm-4.7-flash.gguf $D/webgpu-main.test -test.run XXX -test.bench 'DecodeStep/(all$|only-|no-)' -test.benchtime 20x -test.count 1 2>&1 | grep -E "^Benchmark" | prof
echo "end at $SECONDS s"
