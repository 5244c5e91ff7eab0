#!/usr/bin/env bash
# Session 14, call 6 (MODEL=8b) and call 7 (MODEL=glm): the values pass sharing one softmax among several slices of a
# head's values (valueSpread), new (7f95338) against vals: BenchmarkDecodeStep at 16 sequences (queued) and alone
# (all-queued at position 64), lone decode (ember bench -p 16 -n 128 -r 2), serving at 16 streams; then ember (new) beside
# llama.cpp's llama-server (Vulkan, node-llama-cpp 3.22.1's libraries, -np 64 -ngl 99) at 1, 4, 16, 64 streams
# (bench/serve.sh, greedy, 128 tokens a stream, slots of 256).
set -u
M=${MODEL:-8b}
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
for v in new vals; do xz -dc .dev29/l6/ember-$v.xz > $D/ember-$v; xz -dc .dev29/l6/wt-$v.xz > $D/wt-$v; done
xz -dc .dev29/l6/loadgen.xz > $D/loadgen; tar xJf .dev29/l6/llama-server-vk.tar.xz -C $D; chmod +x $D/*
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
shape=llama3.1:8b; [ $M = glm ] && shape=glm-4.7-flash
$D/ember-new synth --shape $shape --type Q4_0 --seed 1 -o $W/$M.gguf >/dev/null 2>&1
echo "$M synth at $SECONDS s"
for r in 1 2; do for v in new vals; do
  for b in 16 ""; do
    EMBER_BENCH_BATCH=$b EMBER_BENCH_MODEL=$W/$M.gguf timeout 100 $D/wt-$v -test.run XXX -test.benchtime 40x \
      -test.bench 'DecodeStep/all-queued$' 2>&1 | grep Benchmark | awk -v v=$v -v b="batch=${b:-1}" '{print v, b, $1, $3, $4}'
  done
  echo "$v lone: $($D/ember-$v bench --model $W/$M.gguf --backend webgpu -p 16 -n 128 -r 2 2>&1 | grep tg128 | awk '{print $(NF-5), $(NF-4), $(NF-3)}')"
done; done
echo "bench at $SECONDS s"
run() {
  v=$1; n=$2; L=/tmp/logs-$v-$n; mkdir -p $L
  MODEL=$W/$M.gguf EMBER=$D/ember-$v LOADGEN=$D/loadgen SERVERS=ember STREAMS="$n" P=64 N=128 R=1 TEMP=0 BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L \
    timeout -k 10 100 bash bench/serve.sh > $L/table.md 2> $L/serve.err
  echo "== $M $v streams $n: $(grep -v '^|--' $L/table.md | tail -1)  ($SECONDS s)"
}
run new 16; run vals 16; run new 16; run vals 16
L=$OUT/logs-both; mkdir -p $L
MODEL=$W/$M.gguf EMBER=$D/ember-new LOADGEN=$D/loadgen LLAMA_SERVER=$D/llama-server-vk/llama-server STREAMS="1 4 16 64" P=64 N=128 R=1 TEMP=0 \
  BACKEND=webgpu NGL=99 THREADS=16 LOGS=$L timeout -k 10 330 bash bench/serve.sh > $L/table.md 2> $L/serve.err
cat $L/table.md; tail -3 $L/serve.err
rm -f $L/*.json $L/loadgen.err
echo "end at $SECONDS s"
