#!/usr/bin/env bash
# Session 7, call 9: issue 26's serving rows on the 8B Q4_0, ember serve --backend webgpu --parallel 64 through
# bench/serve.sh and bench/loadgen (128 tokens a stream, temperature 0), 1d8f665 (final) against 59cae80 (lc,
# the batch kernels of the last stop), alternated by level.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in final lc; do xz -dc .dev29/e9/ember-$v.xz > $D/ember-$v; done; xz -dc .dev29/e9/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-final synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
for n in 1 4 16 64; do for v in lc final; do
  L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/8b.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 100 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)"
done; echo "at $SECONDS s"; done
