#!/usr/bin/env bash
# Session 14, call 9: a decode batch's ropes, cache stores and scores in attention_step (bsa) against base (3a5ac1d: rope,
# rope, kv_store, attention_scores), llama3.1:8b Q4_0: BenchmarkDecodeStep at 16 sequences (queued), lone decode (ember
# bench -p 16 -n 128 -r 2), serving at 16 streams (bench/serve.sh, greedy, 128 tokens a stream, slots of 256); alternated.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base bsa; do xz -dc .dev29/l9/ember-$v.xz > $D/ember-$v; xz -dc .dev29/l9/wt-$v.xz > $D/wt-$v; done
xz -dc .dev29/l9/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
$D/ember-base synth --shape llama3.1:8b --type Q4_0 --seed 1 -o $W/8b.gguf >/dev/null 2>&1
echo "8b synth at $SECONDS s"
for r in 1 2; do for v in base bsa; do
  EMBER_BENCH_BATCH=16 EMBER_BENCH_MODEL=$W/8b.gguf timeout 60 $D/wt-$v -test.run XXX -test.benchtime 40x \
    -test.bench 'DecodeStep/all-queued$' 2>&1 | grep Benchmark | awk -v v=$v '{print v, "batch 16", $3, $4}'
done; done
for v in base bsa; do echo "$v lone: $($D/ember-$v bench --model $W/8b.gguf --backend webgpu -p 16 -n 128 -r 2 2>&1 | grep tg128 | awk '{print $(NF-5), $(NF-4), $(NF-3)}')"; done
echo "bench at $SECONDS s"
run() {
  v=$1; n=$2; L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/8b.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 40 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
for r in 1 2; do run base 16; run bsa 16; done
echo "end at $SECONDS s"
