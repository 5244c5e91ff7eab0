#!/usr/bin/env bash
# Session 17, call 5 (issue 27): the lent host's CPU (16 cores) at 301cf23+ (the sixteenth session's per-token kernels: F32 rows a call,
# rope, RMSNorm's sums, the Q8_0 and F16 roundings in AVX2): the per-token rows (stories260K, qwen3:0.6b Q8_0) against llama.cpp's zen4
# build at 16 and 4 threads, then the 1B Q4_K_M row with ember held to AVX2 against its haswell build, R=3.
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/p5
(cd $X && xz -dc ember.xz > ember-cpu && chmod +x ember-cpu && tar xJf llama-cpu.tar.xz) || exit 1
lscpu | grep -E "Model name|^CPU\(s\)" | head -3
L=$X/llama-cpu
Z=$X/llama-cpu@zen4; mkdir -p $Z; cp -a $L/llama-bench $L/libggml-base.so $L/libggml.v0.5.0.so $L/libllama.v0.5.0.so $L/libllama-common.so $L/libggml-cpu-zen4.so $Z/
H=$X/llama-cpu@haswell; mkdir -p $H; cp -a $L/llama-bench $L/libggml-base.so $L/libggml.v0.5.0.so $L/libllama.v0.5.0.so $L/libllama-common.so $L/libggml-cpu-haswell.so $H/
B=$X/ember-cpu
W=/tmp/m27; mkdir -p $W; P=
$B synth --shape qwen3:0.6b --type Q8_0 --seed 1 -o $W/qwen3-0.6b-Q8_0.gguf >/dev/null 2>&1 & P="$P $!"
$B synth --shape llama3.2:1b --type Q4_K_M --seed 1 -o $W/llama3.2-1b-Q4_K_M.gguf >/dev/null 2>&1 & P="$P $!"
wait $P
echo "synth at $((SECONDS - START)) s"
cb() { # name timeout env...
  local name=$1 lim=$2; shift 2
  env "$@" EMBER=$B WORK=$W RESULTS=$OUT/$name.jsonl timeout $lim bash bench/cpu.sh >/dev/null 2>$OUT/$name.err || echo "$name cut: $(tail -c 300 $OUT/$name.err)"
  echo "### $name at $((SECONDS - START)) s"; bash bench/cpu.sh --table $OUT/$name.jsonl
}
cb pertoken 200 LLAMA_BENCH=$Z/llama-bench P=128 N=32 R=3 THREADS="16 4" MODELS="$X/stories260K.gguf qwen3:0.6b/Q8_0"
cb avx2 200 ISA=avx2 LLAMA_BENCH=$H/llama-bench P=128 N=32 R=3 THREADS="16 4" MODELS="llama3.2:1b/Q4_K_M"
echo "end at $((SECONDS - START)) s"
