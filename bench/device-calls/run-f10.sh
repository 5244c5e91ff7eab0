#!/usr/bin/env bash
# Session 8, call 10: issue 26's serving rows at 08c7e0c, llama3.1:8b and glm-4.7-flash Q4_0: ember serve --backend
# webgpu --parallel 64 through bench/serve.sh and bench/loadgen (N streams of 128 tokens after a 64-token prompt,
# temperature 0), 1, 4, 16, 64 streams.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/f10/ember.xz > $D/ember; xz -dc .dev29/f10/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1 &
$D/ember synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "8b synth at $SECONDS s"
run() {
  m=$1; n=$2; L=/tmp/logs-$m-$n; mkdir -p $L
  MODEL=$W/$m.gguf EMBER=$D/ember LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 110 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== $m streams $n: $(grep -v '^|--' $L/table.md | tail -1)"
}
for n in 1 4 16 64; do run 8b $n; done
wait
echo "glm synth done at $SECONDS s"
for n in 1 4 16 64; do run glm $n; done
echo "end at $SECONDS s"
