#!/usr/bin/env bash
# Session 20, call 9: where ember bench's prefill loses time against the queued 512-token step: BenchmarkDecodeStep at EMBER_BENCH_TOKENS=512, all (each step waited for) and all-queued, beside ember bench -p 512 -n 1 -r 5 with a CPU profile, on the 1B and the 8B (ember 9b17733).
set -u
exec > >(tee $OUT/log.txt) 2>&1
for f in .gl/*.deb; do dpkg -x $f / ; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
D=/tmp/d; mkdir -p $D
xz -dc .dev29/s8/head.test.xz > $D/head.test; xz -dc .dev29/s8/ember.xz > $D/ember; chmod +x $D/head.test $D/ember
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
W=/tmp/m; mkdir -p $W; P=
for s in llama3.2:1b llama3.1:8b; do $D/ember synth --shape $s --type Q4_0 --seed 1 -o $W/${s//:/-}.gguf >/dev/null 2>&1 & P="$P $!"; done
wait $P
echo "synth at $SECONDS s"
for m in llama3.2-1b llama3.1-8b; do
  for r in 1 2; do
    EMBER_BENCH_MODEL=$W/$m.gguf EMBER_BENCH_TOKENS=512 $D/head.test -test.run '^$' -test.bench 'DecodeStep/all(-queued)?$' -test.benchtime 10x 2>&1 | grep -E 'ns/op|FAIL|panic'
    $D/ember bench --backend webgpu --model $W/$m.gguf -p 512 -n 1 -r 5 --cpuprofile $OUT/$m-$r.prof 2>&1 | grep -E "rep|prefill" | head -8
  done
  echo "at $SECONDS s"
done
