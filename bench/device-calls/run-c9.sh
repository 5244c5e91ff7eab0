#!/usr/bin/env bash
# Session 5, call 9: where the GLM and DeepSeek decode steps go now (82311e4).
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; for f in .dev29/ember-h16.xz .dev29/webgpu-h16.test.xz; do b=$(basename $f .xz); xz -dc $f > $D/$b; chmod +x $D/$b; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in deepseek-v2-lite glm-4.7-flash; do $D/ember-h16 synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done; wait
echo "synth at $SECONDS s"
cd gpu/webgpu
for m in glm-4.7-flash deepseek-v2-lite; do
echo "#### $m decode at 64"
EMBER_BENCH_MODEL=$W/$m.gguf $D/webgpu-h16.test -test.run XXX -test.bench 'DecodeStep/(all$|only-|no-|products)' -test.benchtime 20x -test.count 2 2>&1 | grep -E "^Benchmark" | awk '{k=0; for (i=4;i<NF;i++) if ($(i+1)=="kernels") k=$i; printf "%s %.1f us %s kernels\n", $1, $3/1000, k}' | sort | awk '{k=$1; if (!(k in b) || $2 < b[k]) {b[k]=$2; l[k]=$0}} END {for (k in l) print l[k]}' | sort -k2 -n -r
done
echo "end at $SECONDS s"
