#!/usr/bin/env bash
# Session 5, call 2: main (c4e8550) vs merged (int8 tiles + grouped MoE prefill)
# vs rms (merged + batched loads in rms_scale); then the 8B decode profile of rms.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for v in main merged rms; do xz -dc .dev29/ember-$v.xz > $D/ember-$v; chmod +x $D/ember-$v; done
xz -dc .dev29/webgpu-test.xz > $D/webgpu.test; chmod +x $D/webgpu.test
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember-main synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1))'; }
for m in llama3.1-8b glm-4.7-flash deepseek-v2-lite llama3.2-1b; do for r in 1 2; do for v in main merged rms; do
  echo "== $m $v: $($D/ember-$v bench --backend webgpu --model $W/$m.gguf -p 512 -n 64 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
done; done; done
echo "bench end at $SECONDS s"
cp bench/webgpu-profile.sh /tmp/prof.sh
cd gpu/webgpu && EMBER_BENCH_MODEL=$W/llama3.1-8b.gguf $D/webgpu.test -test.run XXX -test.bench 'DecodeStep/(all$|only-|without-|no-)' -test.benchtime 20x -test.count 2 2>&1 | grep -E "^Benchmark" | awk '{printf "%s %.1f us %s kernels\n", $1, $3/1000, $(NF-3)}' | sort | awk '{k=$1; if (!(k in b) || $2 < b[k]) {b[k]=$2; l[k]=$0}} END {for (k in l) print l[k]}' | sort -k2 -n -r | head -60
echo "end at $SECONDS s"
