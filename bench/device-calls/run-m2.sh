#!/usr/bin/env bash
# Session 15, call 2: a decode batch's products by expert id grouped by expert (matmul_id_tokens, matmul_id_tokens_gate_up
# after one expert_groups a layer) against base ebed34c (a matvec a token and slot): GLM-4.7-Flash Q4_0, serving through
# bench/serve.sh (greedy, 128 tokens a stream, slots of 256) at 16 streams (alternated twice) and 64 (once each), lone decode
# (ember bench -p 16 -n 128 -r 2; the weighted sums now round each product, nofuse), then BenchmarkDecodeStep at 16
# sequences (queued) while time is left.
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in base new; do xz -dc .dev29/m2/ember-$v.xz > $D/ember-$v; xz -dc .dev29/m2/wt-$v.xz > $D/wt-$v; done
xz -dc .dev29/m2/loadgen.xz > $D/loadgen; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
M=glm
$D/ember-new synth --shape glm-4.7-flash --type Q4_0 --seed 1 -o $W/$M.gguf >/dev/null 2>&1
echo "$M synth at $SECONDS s"
run() {
  v=$1; n=$2; L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/$M.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 100 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== $M $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
run new 16; run base 16; run new 16; run base 16
run new 64; run base 64
for v in new base; do
  echo "$v lone: $($D/ember-$v bench --model $W/$M.gguf --backend webgpu -p 16 -n 128 -r 2 2>&1 | grep tg128 | awk '{print $(NF-5), $(NF-4), $(NF-3)}') ($SECONDS s)"
done
for v in new base; do
  [ $SECONDS -lt 500 ] || break
  EMBER_BENCH_BATCH=16 EMBER_BENCH_MODEL=$W/$M.gguf timeout 60 $D/wt-$v -test.run XXX -test.benchtime 40x \
    -test.bench 'DecodeStep/all-queued$' 2>&1 | grep Benchmark | awk -v v=$v '{print v, "batch=16", $1, $3, $4}'
done
echo "end at $SECONDS s"
