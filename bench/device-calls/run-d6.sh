#!/usr/bin/env bash
# Session 6, call 6: where GLM's prefill chunk and GLM's and DeepSeek's decode steps
# go at main (d73c3c2), and llama.cpp Vulkan's per-op decode times on GLM.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for f in .dev29/ember-main.xz .dev29/webgpu-main.test.xz; do b=$(basename $f .xz); xz -dc $f > $D/$b; chmod +x $D/$b; done
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in deepseek-v2-lite glm-4.7-flash; do $D/ember-main synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
GGML_VK_PERF_LOGGER=1 timeout 120 $D/llama-vulkan/llama-bench -m $W/glm-4.7-flash.gguf -p 0 -n 4 -r 1 -ngl 99 > /tmp/perf.txt 2>&1
grep -v "^|" /tmp/perf.txt | tail -40
cd gpu/webgpu
prof() { awk '{k=0; for (i=4;i<NF;i++) if ($(i+1)=="kernels") k=$i; printf "%s %.1f us %s kernels\n", $1, $3/1000, k}' | sort | awk '{k=$1; if (!(k in b) || $2 < b[k]) {b[k]=$2; l[k]=$0}} END {for (k in l) print l[k]}' | sort -k2 -n -r; }
for m in glm-4.7-flash deepseek-v2-lite; do
echo "#### $m decode at 64"
EMBER_BENCH_MODEL=$W/$m.gguf timeout 150 $D/webgpu-main.test -test.run XXX -test.bench 'DecodeStep/(all$|only-|no-|products)' -test.benchtime 20x -test.count 2 2>&1 | grep -E "^Benchmark" | prof
echo "at $SECONDS s"
done
echo "#### glm prefill 512"
EMBER_BENCH_TOKENS=512 EMBER_BENCH_MODEL=$W/glm-4.7-flash.gguf timeout 100 $D/webgpu-main.test -test.run XXX -test.bench 'DecodeStep/(all$|only-)' -test.benchtime 4x -test.count 1 2>&1 | grep -E "^Benchmark" | prof
echo "end at $SECONDS s"
