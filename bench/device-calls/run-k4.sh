#!/usr/bin/env bash
# Session 13, call 4: the closing table at HEAD (c78c764: overlapped greedy chains, prepared sampled steps): ember bench
# --backend webgpu and llama-bench -ngl 99 on Vulkan, -p 512 -n 128 -r 2, same synth files, llama-bench twice a file around
# ember (as run-j4), plus ember's sampled decode (-temp 0.8); the SM clock sampled every 200 ms. Then where the sampled
# token's extra millisecond goes on the 8B: BenchmarkDecodeStep with EMBER_BENCH_TOP=64 (the candidates' topk kernel alone
# and the step without it) and a Go CPU profile of the host during `ember bench -temp 0.8`.
set -u
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D; xz -dc .dev29/k4/ember.xz > $D/ember; xz -dc .dev29/k4/wt.xz > $D/wt.test; chmod +x $D/*
tar xJf .dev29/llama-vulkan.tar.xz -C $D
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
W=/tmp/m; mkdir -p $W
for s in llama3.2:1b youtu-llm:2b llama3.1:8b deepseek-v2-lite glm-4.7-flash; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & done
$D/ember synth --shape llama3.1:8b --type Q4_K_M --seed 1 -o $W/llama3.1-8b-q4km.gguf >/dev/null 2>&1 &
wait
echo "synth at $SECONDS s"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv,noheader -lms 200 > $OUT/clocks.csv 2>&1 &
SMI=$!
mark() { echo "$(date +%Y/%m/%d\ %H:%M:%S.%N) $*" >> $OUT/marks.txt; }
js() { python3 -c 'import json,sys; j=json.load(sys.stdin); print(round(j["prefill_mean"],1), round(j["decode_mean"],1), round(j.get("read_gbps", 0)), j.get("kernels_per_token", ""))'; }
lb() { $D/llama-vulkan/llama-bench -m $W/$1.gguf -p 512 -n 128 -r 2 -ngl 99 -o json 2>$W/lb.err | python3 -c 'import json,sys; print([round(x["avg_ts"],1) for x in json.load(sys.stdin)])'; }
for m in llama3.2-1b youtu-llm-2b llama3.1-8b deepseek-v2-lite glm-4.7-flash llama3.1-8b-q4km; do
  mark "$m vulkan 1 start"; echo "== $m vulkan 1: $(lb $m)"; mark "$m vulkan 1 end"
  echo "== $m ember: $($D/ember bench --backend webgpu --model $W/$m.gguf -p 512 -n 128 -r 2 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  mark "$m vulkan 2 start"; echo "== $m vulkan 2: $(lb $m)"; mark "$m vulkan 2 end"
  echo "== $m ember temp0.8: $($D/ember bench --backend webgpu --model $W/$m.gguf -p 16 -n 128 -r 2 -temp 0.8 --json 2>/dev/null | tail -1 | js 2>&1 | tail -1)"
  echo "at $SECONDS s"
done
grep -m1 "ggml_vulkan: 0 =" $W/lb.err
kill $SMI
echo "== 8B candidates' step"
EMBER_BENCH_TOP=64 EMBER_BENCH_MODEL=$W/llama3.1-8b.gguf timeout 120 $D/wt.test -test.run XXX -test.benchtime 40x \
  -test.bench 'DecodeStep/(all|all-queued|only-topk|without-topk|only-argmax)$' 2>&1 | grep Benchmark | awk '{print $1, $3}'
EMBER_BENCH_MODEL=$W/llama3.1-8b.gguf timeout 120 $D/wt.test -test.run XXX -test.benchtime 40x \
  -test.bench 'DecodeStep/(all|all-queued)$' 2>&1 | grep Benchmark | awk '{print "greedy-step", $1, $3}'
$D/ember bench --backend webgpu --model $W/llama3.1-8b.gguf -p 16 -n 256 -r 2 -temp 0.8 -cpuprofile $OUT/sampled.prof 2>&1 | tail -1
echo "end at $SECONDS s"
