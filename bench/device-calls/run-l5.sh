#!/usr/bin/env bash
# Session 14, call 5: after the scores-pass fixes (7f95338), the batch step of 16 sequences by kernel (BenchmarkDecodeStep
# with EMBER_BENCH_BATCH=16: queued, products alone, the rest alone, the timeline) for llama3.1:8b and glm-4.7-flash Q4_0,
# and GLM's serving (bench/serve.sh, greedy, 128 tokens a stream, slots of 256): base b8c7750 against new 7f95338 at 16
# streams, new at 1 and 64.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base new; do xz -dc .dev29/l5/ember-$v.xz > $D/ember-$v; done; xz -dc .dev29/l5/loadgen.xz > $D/loadgen; xz -dc .dev29/l5/wt.xz > $D/wt.test; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-new synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/glm.gguf >/dev/null 2>&1 &
$D/ember-new synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "8b synth at $SECONDS s"
prof() {
  EMBER_BENCH_BATCH=16 EMBER_BENCH_MODEL=$W/$1.gguf timeout 120 $D/wt.test -test.run XXX -test.benchtime 40x \
    -test.bench 'DecodeStep/(all-queued|products|no-products|no-attention)$' 2>&1 | grep Benchmark | awk -v m=$1 '{print m, $1, $3, $4}'
  EMBER_BENCH_BATCH=16 EMBER_BENCH_MODEL=$W/$1.gguf timeout 100 $D/wt.test -test.run XXX -test.benchtime 10x \
    -test.bench 'DecodeStep/timeline$' > $OUT/timeline-$1.txt 2>&1
  head -14 $OUT/timeline-$1.txt
}
prof 8b
wait
echo "glm synth at $SECONDS s"
prof glm
run() {
  v=$1; n=$2; L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/glm.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 120 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== glm $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
run new 1; run base 16; run new 16; run base 16; run new 16; run new 64
echo "end at $SECONDS s"
