#!/usr/bin/env bash
# Session 17, call 9 (issue 27): the Q8_0 rows again on the lent host's CPU (the zen4 row at 4 threads fell to 0.75/0.91 in run-p6,
# 1.45/1.02 a session earlier): llama3.2:1b Q8_0 against the zen4 build at 4 and 16 threads, then held to AVX2 against haswell at 4, R=4,
# the zen4 pair twice (before and after the haswell one).
set -u
exec > >(tee $OUT/log.txt) 2>&1
START=$SECONDS
X=$PWD/.dev29/p9
(cd $X && xz -dc ember.xz > ember-cpu && chmod +x ember-cpu && tar xJf llama-cpu.tar.xz) || exit 1
L=$X/llama-cpu
Z=$X/llama-cpu@zen4; mkdir -p $Z; cp -a $L/llama-bench $L/libggml-base.so $L/libggml.v0.5.0.so $L/libllama.v0.5.0.so $L/libllama-common.so $L/libggml-cpu-zen4.so $Z/
H=$X/llama-cpu@haswell; mkdir -p $H; cp -a $L/llama-bench $L/libggml-base.so $L/libggml.v0.5.0.so $L/libllama.v0.5.0.so $L/libllama-common.so $L/libggml-cpu-haswell.so $H/
B=$X/ember-cpu
W=/tmp/m27; mkdir -p $W
$B synth --shape llama3.2:1b --type Q8_0 --seed 1 -o $W/llama3.2-1b-Q8_0.gguf >/dev/null 2>&1
echo "synth at $((SECONDS - START)) s"
cb() { # name timeout env...
  local name=$1 lim=$2; shift 2
  env "$@" EMBER=$B WORK=$W RESULTS=$OUT/$name.jsonl timeout $lim bash bench/cpu.sh >/dev/null 2>$OUT/$name.err || echo "$name cut: $(tail -c 300 $OUT/$name.err)"
  echo "### $name at $((SECONDS - START)) s"; bash bench/cpu.sh --table $OUT/$name.jsonl
}
cb zen4a 150 LLAMA_BENCH=$Z/llama-bench P=128 N=32 R=4 THREADS="4 16" MODELS="llama3.2:1b/Q8_0"
cb avx2 100 ISA=avx2 LLAMA_BENCH=$H/llama-bench P=128 N=32 R=4 THREADS="4" MODELS="llama3.2:1b/Q8_0"
cb zen4b 150 LLAMA_BENCH=$Z/llama-bench P=128 N=32 R=4 THREADS="4 16" MODELS="llama3.2:1b/Q8_0"
echo "end at $((SECONDS - START)) s"
