#!/usr/bin/env bash
# Session 5, call 4: where a 512-token prefill chunk goes, kernel file by file
# (only-NAME: that file's kernels alone), 8B and GLM Q4_0, at f9b136a+attention
# loads; llama.cpp Vulkan's per-op times for pp512 on the 8B.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for f in .dev29/ember-att.xz .dev29/webgpu-att.test.xz; do b=$(basename $f .xz); xz -dc $f > $D/$b; chmod +x $D/$b; done
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.1:8b glm-4.7-flash; do $D/ember-att synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
GGML_VK_PERF_LOGGER=1 $D/llama-vulkan/llama-bench -m $W/llama3.1-8b.gguf -p 512 -n 0 -r 1 -ngl 99 > /tmp/perf.txt 2>&1
grep -v "^|" /tmp/perf.txt | tail -22
cd gpu/webgpu
for m in llama3.1-8b glm-4.7-flash; do
echo "#### $m prefill 512"
EMBER_BENCH_TOKENS=512 EMBER_BENCH_MODEL=$W/$m.gguf $D/webgpu-att.test -test.run XXX -test.bench 'DecodeStep/(all$|only-|products|no-products)' -test.benchtime 4x -test.count 1 2>&1 | grep -E "^Benchmark" | awk '{k=0; for (i=4;i<NF;i++) if ($(i+1)=="kernels") k=$i; printf "%s %.0f us %s kernels\n", $1, $3/1000, k}' | sort -k2 -n -r
echo "at $SECONDS s"
done
