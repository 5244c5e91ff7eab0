#!/usr/bin/env bash
# Session 10, call 12: issue 26's serving rows, glm-4.7-flash Q4_0: ember serve --backend webgpu --parallel 64 through
# bench/serve.sh and bench/loadgen (N streams of 128 tokens after a 64-token prompt, temperature 0), base (b514caf)
# against wide (7d821f3: matmul_tokens_wide and the later tiles),
# alternated by level.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base wide; do xz -dc .dev29/h12/ember-$v.xz > $D/ember-$v; done; xz -dc .dev29/h12/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1
echo "glm synth at $SECONDS s"
run() {
  v=$1; n=$2; L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/glm.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 60 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
for n in 16 64; do run base $n; run wide $n; done
echo "end at $SECONDS s"
