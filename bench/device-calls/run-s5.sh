#!/usr/bin/env bash
# Session 20, call 5 (issue 26): ember (7d8391d) beside llama.cpp's llama-server (Vulkan, node-llama-cpp 3.22.1's libraries,
# -np 64 -ngl 99) at 1, 4, 16, 64 streams on llama3.1:8b Q4_0 (bench/serve.sh, greedy, 128 tokens a stream after a 64-token prompt).
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/s5/ember.xz > $D/ember; xz -dc .dev29/s5/loadgen.xz > $D/loadgen; tar xJf .dev29/s5/llama-server-vk.tar.xz -C $D; chmod +x $D/ember $D/loadgen
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "synth at $SECONDS s"
L=$OUT/logs-both; mkdir -p $L
MODEL=$W/8b.gguf EMBER=$D/ember LOADGEN=$D/loadgen LLAMA_SERVER=$D/llama-server-vk/llama-server STREAMS="1 4 16 64" P=64 N=128 R=1 TEMP=0 \
  BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L timeout -k 10 400 bash bench/serve.sh > $L/table.md 2> $L/serve.err
cat $L/table.md; tail -3 $L/serve.err
rm -f $L/*.json $L/loadgen.err
echo "end at $SECONDS s"
