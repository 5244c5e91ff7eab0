#!/usr/bin/env bash
# Session 18, call 7 (issue 27): the Q8_0 prefill cell with both tools pinned to the same cores (taskset), alternated:
# ember (b74d79e) held to AVX2 and llama.cpp's haswell build, 1B Q8_0 pp128 at 2 threads on cores 4,5 and on 10,11.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/q7
(cd $X && xz -dc ember.xz > ember && chmod +x ember && tar xJf llama-cpu.tar.xz) || exit 1
W=/tmp/m27; mkdir -p $W
$X/ember synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/q8.gguf >/dev/null 2>&1
echo "synth at $((SECONDS - START)) s"
for cores in 4,5 10,11 4,5 10,11; do
  echo "## cores $cores"
  EMBER_CPU=avx2 taskset -c $cores $X/ember bench --backend cpu --model $W/q8.gguf -p 128 -n 1 -r 4 --threads 2 2>&1 | grep " pp128"
  taskset -c $cores $X/llama-cpu/llama-bench -m $W/q8.gguf -p 128 -n 0 -r 4 -t 2 2>&1 | grep pp128
done
echo "## one thread, core 7"
EMBER_CPU=avx2 taskset -c 7 $X/ember bench --backend cpu --model $W/q8.gguf -p 128 -n 1 -r 3 --threads 1 2>&1 | grep " pp128"
taskset -c 7 $X/llama-cpu/llama-bench -m $W/q8.gguf -p 128 -n 0 -r 3 -t 1 2>&1 | grep pp128
echo "end at $((SECONDS - START)) s"
